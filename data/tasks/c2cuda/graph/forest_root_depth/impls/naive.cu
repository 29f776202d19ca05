// strategy: naive (weak) — one thread per vertex chases parent pointers one hop at a time all the way to its root (work = sum of all depths instead of n log n; lanes diverge on different path lengths; byte loads re-read by every descendant)
#include <cuda_runtime.h>

__global__ void frd_chase_naive(int n, const unsigned char* off, int* root, int* depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = i, d = 0;
  for (;;) {
    int o = off[v];
    if (o == 0 || o > v) break;
    v -= o;
    ++d;
  }
  root[i] = v;
  depth[i] = d;
}

extern "C" void forest_root_depth(int n, const unsigned char* off, int* root, int* depth, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  frd_chase_naive<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, off, root, depth);
}

// strategy: naive (weak) — one thread per quad, eight scalar loads at a 32-byte stride between neighbouring threads, vertices kept in a dynamically indexed local array
#include <cuda_runtime.h>

__global__ void quad_naive_kernel(int n, const int* quads, int* cls, int* area2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v[8];
  for (int k = 0; k < 8; ++k) v[k] = quads[8 * (long long)i + k];
  int pos = 0, neg = 0, a = 0;
  for (int k = 0; k < 4; ++k) {
    int k1 = (k + 1) % 4, k2 = (k + 2) % 4;
    int t = (v[2 * k1] - v[2 * k]) * (v[2 * k2 + 1] - v[2 * k1 + 1]) -
            (v[2 * k1 + 1] - v[2 * k + 1]) * (v[2 * k2] - v[2 * k1]);
    if (t > 0) pos++;
    if (t < 0) neg++;
    a += v[2 * k] * v[2 * k1 + 1] - v[2 * k1] * v[2 * k + 1];
  }
  int c;
  if (pos + neg < 4) c = 0;
  else if (pos == 4) c = 1;
  else if (neg == 4) c = 2;
  else if (pos == 2) c = 4;
  else c = 3;
  cls[i] = c;
  area2[i] = a;
}

extern "C" void quad_classify(int n, const int* quads, int* cls, int* area2, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 64;
  quad_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, quads, cls, area2);
}

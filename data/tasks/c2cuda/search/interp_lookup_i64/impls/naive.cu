// strategy: naive (weak) — one thread per query, plain branchy binary search over all n keys in global memory (about log2(n) dependent scattered 8-byte loads), then an equality test
#include <cuda_runtime.h>

__global__ void interp_lookup_naive_kernel(int n, int m, const long long* keys, const long long* q, int* pos) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const long long v = q[i];
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (keys[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  pos[i] = (lo < n && keys[lo] == v) ? lo : -1;
}

extern "C" void interp_lookup_i64(int n, int m, const long long* keys, const long long* q, int* pos,
                                  cudaStream_t stream) {
  if (m <= 0) return;
  interp_lookup_naive_kernel<<<(unsigned)(((long long)m + 127) / 128), 128, 0, stream>>>(n, m, keys, q, pos);
}

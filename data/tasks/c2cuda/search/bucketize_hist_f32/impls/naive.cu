// strategy: naive (weak) — one thread per value: branchy binary search over the boundaries in global memory, then one global atomicAdd per value into the shared counts (heavy contention on hot buckets)
#include <cuda_runtime.h>

__global__ void bucketize_naive_zero(int nb, int* counts) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j <= nb) counts[j] = 0;
}

__global__ void bucketize_naive_kernel(int n, int nb, const float* x, const float* b, int* idx, int* counts) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  int lo = 0, hi = nb;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (b[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  idx[i] = lo;
  atomicAdd(counts + lo, 1);
}

extern "C" void bucketize_hist_f32(int n, int nb, const float* x, const float* b, int* idx, int* counts,
                                   cudaStream_t stream) {
  bucketize_naive_zero<<<(nb + 1 + 255) / 256, 256, 0, stream>>>(nb, counts);
  if (n <= 0) return;
  bucketize_naive_kernel<<<(unsigned)(((long long)n + 255) / 256), 256, 0, stream>>>(n, nb, x, b, idx, counts);
}

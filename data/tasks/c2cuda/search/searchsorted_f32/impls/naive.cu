// strategy: naive (weak) — one thread per query runs a textbook branchy binary search straight over the global array; every probe is a dependent, scattered global load
#include <cuda_runtime.h>

__global__ void searchsorted_naive_kernel(int n, int m, const float* a, const float* q, int* out) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float x = q[i];
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  out[i] = lo;
}

extern "C" void searchsorted_f32(int n, int m, const float* a, const float* q, int* out, cudaStream_t stream) {
  if (m <= 0) return;
  const int threads = 128;
  const unsigned blocks = (unsigned)(((long long)m + threads - 1) / threads);
  searchsorted_naive_kernel<<<blocks, threads, 0, stream>>>(n, m, a, q, out);
}

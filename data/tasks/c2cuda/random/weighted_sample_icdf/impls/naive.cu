// strategy: naive (weak) — the prefix sum is built by a single GPU thread walking all n weights serially, then one thread per draw binary-searches the full n-entry CDF in global memory
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void icdf_serial_scan_kernel(int n, const uint32_t* w, unsigned long long* cdf, unsigned long long* total) {
  unsigned long long run = 0;
  for (int i = 0; i < n; ++i) {
    run += w[i];
    cdf[i] = run;
  }
  *total = run;
}

__global__ void icdf_naive_search_kernel(int n, int m, unsigned long long seed, const unsigned long long* cdf,
                                         const unsigned long long* total_p, int* idx) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const unsigned long long total = *total_p;
  if (total == 0) {
    idx[j] = -1;
    return;
  }
  unsigned long long z = seed + ((unsigned long long)j + 1ull) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  const unsigned long long t = z % total;
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (cdf[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  idx[j] = lo;
}

extern "C" void weighted_sample_icdf(int n, int m, unsigned long long seed, const uint32_t* w, int* idx,
                                     cudaStream_t stream) {
  if (m <= 0) return;
  unsigned long long* scratch = nullptr;
  cudaMallocAsync((void**)&scratch, sizeof(unsigned long long) * ((size_t)(n > 0 ? n : 0) + 1), stream);
  unsigned long long* total = scratch;
  unsigned long long* cdf = scratch + 1;
  icdf_serial_scan_kernel<<<1, 1, 0, stream>>>(n, w, cdf, total);
  const int threads = 256;
  icdf_naive_search_kernel<<<(m + threads - 1) / threads, threads, 0, stream>>>(n, m, seed, cdf, total, idx);
  cudaFreeAsync(scratch, stream);
}

// strategy: naive (weak) — the double prefix sum of the weights is built by a single block (each of 1024 threads walks a contiguous chunk serially, uncoalesced, one thread scans the chunk totals), then one thread per query does two independent full binary searches in global memory
#include <cuda_runtime.h>

namespace {

constexpr int kScanThreads = 1024;

__global__ void single_block_prefix(int n, const float* w, double* prefix) {
  __shared__ double chunk_sum[kScanThreads];
  const int t = threadIdx.x;
  const long long chunk = ((long long)n + kScanThreads - 1) / kScanThreads;
  const long long b = t * chunk, e = min(b + chunk, (long long)n);
  double s = 0.0;
  for (long long i = b; i < e; ++i) s += (double)w[i];
  chunk_sum[t] = s;
  __syncthreads();
  if (t == 0) {
    double run = 0.0;
    for (int j = 0; j < kScanThreads; ++j) {
      const double v = chunk_sum[j];
      chunk_sum[j] = run;
      run += v;
    }
    prefix[0] = 0.0;
  }
  __syncthreads();
  double run = chunk_sum[t];
  for (long long i = b; i < e; ++i) {
    run += (double)w[i];
    prefix[i + 1] = run;
  }
}

__device__ int lower_bound_f32(const float* a, int n, float x) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__global__ void range_queries(int n, int m, const float* keys, const double* prefix, const float* qlo,
                              const float* qlen, int* count, float* wsum) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float lo = qlo[i];
  const float hi = lo + qlen[i];
  const int a = lower_bound_f32(keys, n, lo), b = lower_bound_f32(keys, n, hi);
  count[i] = b - a;
  wsum[i] = (float)(prefix[b] - prefix[a]);
}

}  // namespace

extern "C" void range_weight_query_f32(int n, int m, const float* keys, const float* w, const float* qlo,
                                       const float* qlen, int* count, float* wsum, cudaStream_t stream) {
  if (m <= 0) return;
  double* prefix = nullptr;
  cudaMallocAsync((void**)&prefix, sizeof(double) * ((size_t)n + 1), stream);
  single_block_prefix<<<1, kScanThreads, 0, stream>>>(n, w, prefix);
  range_queries<<<(unsigned)(((long long)m + 127) / 128), 128, 0, stream>>>(n, m, keys, prefix, qlo, qlen, count, wsum);
  cudaFreeAsync(prefix, stream);
}

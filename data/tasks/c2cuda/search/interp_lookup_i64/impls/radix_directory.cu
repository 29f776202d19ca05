// strategy: radix_directory — a build kernel cuts the key range [keys[0], keys[n-1]] into 2^20 equal power-of-two-wide buckets and stores each bucket's lower_bound in a 4 MB directory (L2-resident); a query shifts its key to a bucket, reads two directory words and binary-searches only the few keys between them
#include <cuda_runtime.h>

namespace {

constexpr int kLogBuckets = 20;
constexpr int kBuckets = 1 << kLogBuckets;

// smallest shift with (kmax - kmin) >> shift < kBuckets
__device__ __forceinline__ int bucket_shift(long long kmin, long long kmax) {
  const unsigned long long span = (unsigned long long)(kmax - kmin);
  int s = 0;
  while ((span >> s) >= (unsigned long long)kBuckets) ++s;
  return s;
}

__device__ __forceinline__ int lower_bound(const long long* __restrict__ keys, int lo, int hi, long long v) {
  while (lo < hi) {
    const int mid = lo + ((hi - lo) >> 1);
    if (__ldg(keys + mid) < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// dir[b] = lower_bound(keys, kmin + (b << shift)) for b in [0, kBuckets]
__global__ void build_directory(int n, const long long* __restrict__ keys, int* __restrict__ dir) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b > kBuckets) return;
  const long long kmin = __ldg(keys), kmax = __ldg(keys + n - 1);
  const int s = bucket_shift(kmin, kmax);
  const unsigned long long span = (unsigned long long)(kmax - kmin);
  // bucket b starts past kmax exactly when b > span >> s (tested this way so b << s cannot wrap)
  dir[b] = (unsigned long long)b > (span >> s) ? n
                                                : lower_bound(keys, 0, n, kmin + (long long)((unsigned long long)b << s));
}

__global__ void directory_lookup(int n, int m, const long long* __restrict__ keys, const long long* __restrict__ q,
                                 const int* __restrict__ dir, int* __restrict__ pos) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const long long v = __ldcs(q + i);
  const long long kmin = __ldg(keys), kmax = __ldg(keys + n - 1);
  int ans;
  if (v <= kmin) {
    ans = 0;
  } else if (v > kmax) {
    ans = n;
  } else {
    const int s = bucket_shift(kmin, kmax);
    const int b = (int)((unsigned long long)(v - kmin) >> s);
    // kmin + (b << s) <= v < kmin + ((b + 1) << s), so lower_bound(v) lies in [dir[b], dir[b+1]]
    ans = lower_bound(keys, __ldg(dir + b), __ldg(dir + b + 1), v);
  }
  __stcs(pos + i, (ans < n && __ldg(keys + ans) == v) ? ans : -1);
}

}  // namespace

extern "C" void interp_lookup_i64(int n, int m, const long long* keys, const long long* q, int* pos,
                                  cudaStream_t stream) {
  if (m <= 0) return;
  if (n <= 0) {
    cudaMemsetAsync(pos, 0xff, sizeof(int) * (size_t)m, stream);  // every answer is -1
    return;
  }
  int* dir = nullptr;
  cudaMallocAsync((void**)&dir, sizeof(int) * ((size_t)kBuckets + 1), stream);
  build_directory<<<(kBuckets + 1 + 255) / 256, 256, 0, stream>>>(n, keys, dir);
  directory_lookup<<<(unsigned)(((long long)m + 255) / 256), 256, 0, stream>>>(n, m, keys, q, dir, pos);
  cudaFreeAsync(dir, stream);
}

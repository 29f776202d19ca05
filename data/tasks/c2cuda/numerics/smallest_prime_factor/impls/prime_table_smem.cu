// strategy: prime_table_smem — a one-block sieve of Eratosthenes over [0, 2^16) in shared memory, compacted in order by a block prefix sum into the 6542 primes below 2^16 (scratch), which every block of the main kernel stages in shared memory as uint16; trial division then runs over primes only (about 5x fewer divisions than odd numbers)
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kLimit = 1 << 16;
constexpr int kSieveThreads = 1024;
constexpr int kPerThread = kLimit / kSieveThreads;  // 64 consecutive numbers per thread
constexpr int kMaxPrimes = 6542;                     // primes below 2^16
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kSieveThreads) build_primes_kernel(uint16_t* __restrict__ primes) {
  extern __shared__ unsigned char s_comp[];  // kLimit flags, 1 = composite
  __shared__ int s_scan[kSieveThreads];
  for (int t = threadIdx.x; t < kLimit; t += kSieveThreads) s_comp[t] = (t < 2) ? 1 : 0;
  __syncthreads();
  for (int p = 2; p * p < kLimit; ++p) {
    if (!s_comp[p]) {  // every smaller prime has finished marking, so this flag is final
      for (int m = p * p + threadIdx.x * p; m < kLimit; m += kSieveThreads * p) s_comp[m] = 1;
    }
    __syncthreads();
  }
  const int base = threadIdx.x * kPerThread;
  int cnt = 0;
  for (int k = 0; k < kPerThread; ++k) cnt += s_comp[base + k] ? 0 : 1;
  s_scan[threadIdx.x] = cnt;
  __syncthreads();
  for (int off = 1; off < kSieveThreads; off <<= 1) {  // Hillis-Steele inclusive scan
    const int v = (threadIdx.x >= off) ? s_scan[threadIdx.x - off] : 0;
    __syncthreads();
    s_scan[threadIdx.x] += v;
    __syncthreads();
  }
  int pos = s_scan[threadIdx.x] - cnt;
  for (int k = 0; k < kPerThread; ++k)
    if (!s_comp[base + k]) primes[pos++] = (uint16_t)(base + k);
}

__global__ void __launch_bounds__(kThreads)
spf_table_kernel(int n, const uint32_t* __restrict__ x, const uint16_t* __restrict__ primes, uint32_t* __restrict__ out) {
  __shared__ uint16_t s_p[kMaxPrimes];
  for (int t = threadIdx.x; t < kMaxPrimes; t += kThreads) s_p[t] = primes[t];
  __syncthreads();
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const uint32_t v = __ldg(x + i);
    uint32_t f = v;
    if (v >= 2) {
      for (int k = 0; k < kMaxPrimes; ++k) {
        const uint32_t p = s_p[k];
        if (p * p > v) break;  // p < 2^16, so p*p fits in 32 bits
        if (v % p == 0) {
          f = p;
          break;
        }
      }
    }
    out[i] = f;
  }
}

}  // namespace

extern "C" void smallest_prime_factor(int n, const uint32_t* x, uint32_t* out, cudaStream_t stream) {
  if (n <= 0) return;
  uint16_t* primes = nullptr;
  cudaMallocAsync(&primes, sizeof(uint16_t) * kMaxPrimes, stream);
  cudaFuncSetAttribute(build_primes_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kLimit);
  build_primes_kernel<<<1, kSieveThreads, kLimit, stream>>>(primes);
  int blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 132 * 8) blocks = 132 * 8;
  spf_table_kernel<<<blocks, kThreads, 0, stream>>>(n, x, primes, out);
  cudaFreeAsync(primes, stream);
}

// strategy: warp_cooperative — each lane first clears its own value against 2 and the odd divisors below 257; the few values still unresolved (large prime factors) are then finished one at a time by the whole warp, lanes testing 32 consecutive odd divisors per round and a ballot picking the smallest hit, so a warp pays the sum of its hard values' work / 32 instead of the maximum
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr uint32_t kSmall = 257;  // first odd divisor left to the cooperative phase

__global__ void __launch_bounds__(kThreads)
spf_coop_kernel(int n, const uint32_t* __restrict__ x, uint32_t* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long wbase = (((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * 32; wbase < n;
       wbase += warps_total * 32) {
    const long long i = wbase + lane;
    const bool valid = i < n;
    const uint32_t v = valid ? __ldg(x + i) : 0u;
    uint32_t f = v;
    bool open = false;  // still needs divisors >= kSmall
    if (v >= 2) {
      if ((v & 1u) == 0) {
        f = 2;
      } else {
        uint32_t d = 3;
        for (; d < kSmall && d * d <= v; d += 2) {
          if (v % d == 0) break;
        }
        if (d < kSmall && d * d <= v) {
          f = d;
        } else if (d >= kSmall && (uint64_t)kSmall * kSmall <= v) {
          open = true;
        }  // otherwise no divisor up to sqrt(v): v is prime, f = v
      }
    }
    unsigned int pending = __ballot_sync(0xffffffffu, open);
    while (pending) {
      const int src = __ffs(pending) - 1;
      pending &= pending - 1;
      const uint32_t val = __shfl_sync(0xffffffffu, v, src);
      uint32_t found = val;
      for (uint32_t d0 = kSmall; (uint64_t)d0 * d0 <= val; d0 += 64) {
        const uint32_t d = d0 + 2u * (uint32_t)lane;
        const bool hit = ((uint64_t)d * d <= val) && (val % d == 0);
        const unsigned int hits = __ballot_sync(0xffffffffu, hit);
        if (hits) {
          found = d0 + 2u * (uint32_t)(__ffs(hits) - 1);
          break;
        }
      }
      if (lane == src) f = found;
    }
    if (valid) out[i] = f;
  }
}

}  // namespace

extern "C" void smallest_prime_factor(int n, const uint32_t* x, uint32_t* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)n + 32LL * warps_per_block - 1) / (32LL * warps_per_block);
  if (blocks > 132 * 8) blocks = 132 * 8;
  spf_coop_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, x, out);
}

// strategy: table_jump — a 2^10-entry jump table in shared memory (built by each block) maps the low 10 bits l of x = 2^10*h + l to (3^o, d, 10 + o) so that 10 halvings (and the o odd steps between them) are one multiply-add x = 3^o*h + d; used while x > 2^10 (no intermediate can reach 1), the tail is stepped one by one
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kBits = 10;
constexpr int kEntries = 1 << kBits;
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) collatz_jump_kernel(int n, long long lo, int* __restrict__ out) {
  __shared__ uint32_t s_mul[kEntries];
  __shared__ uint32_t s_add[kEntries];
  __shared__ uint8_t s_cnt[kEntries];
  for (int l = threadIdx.x; l < kEntries; l += kThreads) {
    // x = 2^k*h + l: the high part is multiplied by 3 at every odd step and loses one factor 2 at
    // every halving, the low part evolves on its own; parity is decided by the low part alone
    uint32_t v = (uint32_t)l, mul = 1;
    int remaining = kBits, odd = 0;
    while (remaining > 0) {
      if (v & 1u) {
        v = 3u * v + 1u;
        mul *= 3u;
        ++odd;
      } else {
        v >>= 1;
        --remaining;
      }
    }
    s_mul[l] = mul;
    s_add[l] = v;
    s_cnt[l] = (uint8_t)(kBits + odd);
  }
  __syncthreads();
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint64_t x = (uint64_t)lo + (uint64_t)i;
    int steps = 0;
    while (x > (uint64_t)kEntries) {
      const uint32_t l = (uint32_t)(x & (kEntries - 1));
      x = (uint64_t)s_mul[l] * (x >> kBits) + s_add[l];
      steps += s_cnt[l];
    }
    while (x != 1) {
      if (x & 1u)
        x = 3u * x + 1u;
      else
        x >>= 1;
      ++steps;
    }
    out[i] = steps;
  }
}

}  // namespace

extern "C" void collatz_steps(int n, long long lo, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  int blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 132 * 16) blocks = 132 * 16;
  collatz_jump_kernel<<<blocks, kThreads, 0, stream>>>(n, lo, out);
}

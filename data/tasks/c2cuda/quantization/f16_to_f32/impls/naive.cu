// strategy: naive (weak) — each thread widens a private contiguous run of 256 halves with the branchy field-by-field decode and scalar accesses: a warp's accesses are 1 KiB apart, nothing coalesces
#include <cuda_runtime.h>

__device__ unsigned int half_bits_to_float_bits(unsigned int hb) {
  unsigned int sign = (hb >> 15) & 1u, e = (hb >> 10) & 31u, m = hb & 1023u;
  if (e == 0) {
    float v = __fmul_rn((float)m, 5.9604644775390625e-8f);
    return (sign << 31) | __float_as_uint(v);
  }
  if (e == 31) {
    if (m == 0) return (sign << 31) | 0x7F800000u;
    return (sign << 31) | 0x7FC00000u | (m << 13);
  }
  return (sign << 31) | ((e + 112u) << 23) | (m << 13);
}

constexpr long long kRun = 256;

__global__ void f16_to_f32_naive_kernel(long long n, const unsigned int* h, unsigned int* out) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long i0 = t * kRun;
  for (long long i = i0; i < i0 + kRun && i < n; ++i) {
    unsigned int w = h[i >> 1];
    out[i] = half_bits_to_float_bits((i & 1) ? (w >> 16) : (w & 0xFFFFu));
  }
}

extern "C" void f16_to_f32(long long n, const unsigned int* h, unsigned int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const long long threads_needed = (n + kRun - 1) / kRun;
  const int threads = 128;
  f16_to_f32_naive_kernel<<<(unsigned int)((threads_needed + threads - 1) / threads), threads, 0, stream>>>(n, h, out);
}

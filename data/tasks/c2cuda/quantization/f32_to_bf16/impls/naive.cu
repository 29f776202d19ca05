// strategy: naive (weak) — each thread converts a private contiguous run of 256 output words with scalar loads: a warp's accesses are 2 KiB apart (uncoalesced), and few threads are launched
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int bf16_rne(unsigned int u) {
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (u >> 16) | 0x0040u;
  return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}

constexpr long long kRun = 256;

__global__ void f32_to_bf16_naive_kernel(long long n, const unsigned int* bits, unsigned int* out) {
  const long long words = (n + 1) / 2;
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long j0 = t * kRun;
  for (long long j = j0; j < j0 + kRun && j < words; ++j) {
    unsigned int lo = bf16_rne(bits[2 * j]);
    unsigned int hi = (2 * j + 1 < n) ? bf16_rne(bits[2 * j + 1]) : 0u;
    out[j] = lo | (hi << 16);
  }
}

extern "C" void f32_to_bf16(long long n, const unsigned int* bits, unsigned int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const long long words = (n + 1) / 2;
  const long long threads_needed = (words + kRun - 1) / kRun;
  const int threads = 128;
  f32_to_bf16_naive_kernel<<<(unsigned int)((threads_needed + threads - 1) / threads), threads, 0, stream>>>(n, bits, out);
}

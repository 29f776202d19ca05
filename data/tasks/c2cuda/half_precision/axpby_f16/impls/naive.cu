// strategy: naive (weak) — each thread walks a private contiguous run of 128 elements with 16-bit scalar loads and stores (a warp's accesses are 256 bytes apart, nothing coalesces), one hardware half<->float conversion per element
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr long long kRun = 128;

__global__ void axpby_f16_naive_kernel(long long n, float a, float b, const unsigned short* x, const unsigned short* y,
                                       unsigned short* out) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long i0 = t * kRun;
  for (long long i = i0; i < i0 + kRun && i < n; ++i) {
    const float xf = __half2float(__ushort_as_half(x[i]));
    const float yb = __fmul_rn(b, __half2float(__ushort_as_half(y[i])));
    const float r = __fmaf_rn(a, xf, yb);
    out[i] = (r != r) ? (unsigned short)0x7FFFu : __half_as_ushort(__float2half_rn(r));
  }
  // the unused high half of the last word when n is odd
  if ((n & 1) && i0 <= n - 1 && n - 1 < i0 + kRun) out[n] = 0;
}

extern "C" void axpby_f16(long long n, float a, float b, const unsigned int* x, const unsigned int* y, unsigned int* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  const long long threads_needed = (n + kRun - 1) / kRun;
  const int threads = 128;
  axpby_f16_naive_kernel<<<(unsigned int)((threads_needed + threads - 1) / threads), threads, 0, stream>>>(
      n, a, b, reinterpret_cast<const unsigned short*>(x), reinterpret_cast<const unsigned short*>(y),
      reinterpret_cast<unsigned short*>(out));
}

// strategy: half2_vec8 — cuda_fp16 paired intrinsics on 8 elements per step: one 128-bit streaming load of each input (four __half2), __half22float2 widening, fmaf in float, __floats2half2_rn narrowing (NaN lanes patched to 0x7FFF), one 128-bit store; grid-stride, scalar-word epilogue for the last < 8 elements and for buffers not 16-byte aligned
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ unsigned int pair(float a, float b, unsigned int xw, unsigned int yw) {
  __half2 xh, yh;
  memcpy(&xh, &xw, sizeof xw);  // low half -> .x (even element), high half -> .y (odd element)
  memcpy(&yh, &yw, sizeof yw);
  const float2 xf = __half22float2(xh), yf = __half22float2(yh);
  const float r0 = __fmaf_rn(a, xf.x, __fmul_rn(b, yf.x));
  const float r1 = __fmaf_rn(a, xf.y, __fmul_rn(b, yf.y));
  const __half2 o = __floats2half2_rn(r0, r1);
  unsigned int w;
  memcpy(&w, &o, sizeof w);
  if (r0 != r0) w = (w & 0xFFFF0000u) | 0x7FFFu;
  if (r1 != r1) w = (w & 0x0000FFFFu) | 0x7FFF0000u;
  return w;
}

__global__ void __launch_bounds__(kThreads)
axpby_f16_vec8_kernel(long long n, float a, float b, const unsigned int* __restrict__ x, const unsigned int* __restrict__ y,
                      unsigned int* __restrict__ out, int vec) {
  const long long words = (n + 1) / 2;
  const long long groups = vec ? n / 8 : 0;  // complete groups of 8 elements = 4 words
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long t0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const uint4* x4 = reinterpret_cast<const uint4*>(x);
  const uint4* y4 = reinterpret_cast<const uint4*>(y);
  uint4* o4 = reinterpret_cast<uint4*>(out);
  for (long long g = t0; g < groups; g += stride) {
    const uint4 xv = __ldcs(x4 + g), yv = __ldcs(y4 + g);
    uint4 o;
    o.x = pair(a, b, xv.x, yv.x);
    o.y = pair(a, b, xv.y, yv.y);
    o.z = pair(a, b, xv.z, yv.z);
    o.w = pair(a, b, xv.w, yv.w);
    __stcs(o4 + g, o);
  }
  // remaining words (all of them when not vectorised), the last one possibly half-filled
  for (long long j = 4 * groups + t0; j < words; j += stride) {
    unsigned int w = pair(a, b, x[j], y[j]);
    if (2 * j + 1 >= n) w &= 0xFFFFu;
    out[j] = w;
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void axpby_f16(long long n, float a, float b, const unsigned int* x, const unsigned int* y, unsigned int* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  const int vec = (((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y) | reinterpret_cast<uintptr_t>(out)) & 15u) == 0)
                      ? 1 : 0;
  const long long units = vec ? (n / 8 > 0 ? n / 8 : 1) : (n + 1) / 2;
  long long blocks = (units + kThreads - 1) / kThreads;
  const long long max_blocks = 8LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks < 1) blocks = 1;
  axpby_f16_vec8_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, a, b, x, y, out, vec);
}

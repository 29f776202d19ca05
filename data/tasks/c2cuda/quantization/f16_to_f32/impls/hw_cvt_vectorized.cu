// strategy: hw_cvt_vectorized — hardware half->float conversion (__half22float2, exact for every finite pattern and infinities) on 8 halves per step: one 128-bit streaming load of packed halves, two 128-bit stores; NaNs patched to the specified quiet-NaN pattern with a select; scalar epilogue for the last < 8 elements
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ unsigned int fix_nan(unsigned int hb, float f) {
  const unsigned int mag = hb & 0x7FFFu;
  const unsigned int nan_bits = ((hb & 0x8000u) << 16) | 0x7FC00000u | ((hb & 0x3FFu) << 13);
  return mag > 0x7C00u ? nan_bits : __float_as_uint(f);
}

__device__ __forceinline__ uint2 widen2(unsigned int w) {
  __half2 hv;
  memcpy(&hv, &w, sizeof w);  // low half -> .x (element 2j), high half -> .y (element 2j+1)
  const float2 f = __half22float2(hv);
  return make_uint2(fix_nan(w & 0xFFFFu, f.x), fix_nan(w >> 16, f.y));
}

__device__ __forceinline__ unsigned int widen1(unsigned int hb) {
  return fix_nan(hb, __half2float(__ushort_as_half((unsigned short)hb)));
}

__global__ void __launch_bounds__(kThreads)
f16_to_f32_hw_kernel(long long n, const unsigned int* __restrict__ h, unsigned int* __restrict__ out) {
  const long long groups = n / 8;  // 8 halves = 4 words = one uint4 in, two uint4 out
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long t0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const uint4* in4 = reinterpret_cast<const uint4*>(h);
  uint4* out4 = reinterpret_cast<uint4*>(out);
  for (long long g = t0; g < groups; g += stride) {
    const uint4 w = __ldcs(in4 + g);
    const uint2 a = widen2(w.x), b = widen2(w.y), c = widen2(w.z), d = widen2(w.w);
    __stcs(out4 + 2 * g, make_uint4(a.x, a.y, b.x, b.y));
    __stcs(out4 + 2 * g + 1, make_uint4(c.x, c.y, d.x, d.y));
  }
  // tail: elements 8*groups .. n-1 (at most 7)
  const long long i = 8 * groups + t0;
  if (i < n) {
    const unsigned int w = h[i >> 1];
    out[i] = widen1((i & 1) ? (w >> 16) : (w & 0xFFFFu));
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

extern "C" void f16_to_f32(long long n, const unsigned int* h, unsigned int* out, cudaStream_t stream) {
  if (n <= 0) return;
  long long blocks = (n / 8 + kThreads - 1) / kThreads;
  const long long max_blocks = 8LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks < 1) blocks = 1;
  f16_to_f32_hw_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, h, out);
}

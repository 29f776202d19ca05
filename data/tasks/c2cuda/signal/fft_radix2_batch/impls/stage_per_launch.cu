// strategy: stage_per_launch — a bit-reversal permutation kernel then one kernel launch per radix-2 stage, one thread per butterfly over the whole batch, float2 loads/stores (logn+1 passes over global memory)
#include <cuda_runtime.h>

namespace {

__device__ __forceinline__ unsigned int fft_rev(unsigned int v, int logn) {
  return logn == 0 ? 0u : (__brev(v) >> (32 - logn));
}

__global__ void fft_bitrev_kernel(long long total, int logn, const float2* __restrict__ x, float2* __restrict__ y) {
  const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= total) return;
  const long long n = 1LL << logn;
  const long long b = e >> logn;
  const unsigned int j = (unsigned int)(e & (n - 1));
  y[b * n + fft_rev(j, logn)] = __ldg(x + e);
}

__global__ void fft_stage_kernel(long long butterflies, int logn, int s, float2* __restrict__ y) {
  const long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= butterflies) return;
  const int hs = 1 << s;
  const long long half = 1LL << (logn - 1);
  const long long b = id / half;
  const int p = (int)(id - b * half);
  const int k = p & (hs - 1);
  const int grp = p >> s;
  float2* sig = y + (b << logn);
  const int i0 = grp * 2 * hs + k, i1 = i0 + hs;
  float wr, wi;
  sincospif(-(float)k / (float)hs, &wi, &wr);
  const float2 a = sig[i0], v = sig[i1];
  const float br = v.x * wr - v.y * wi, bi = v.x * wi + v.y * wr;
  sig[i0] = make_float2(a.x + br, a.y + bi);
  sig[i1] = make_float2(a.x - br, a.y - bi);
}

}  // namespace

extern "C" void fft_radix2_batch(int batch, int logn, const float* x, float* y, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 256;
  const long long total = (long long)batch << logn;
  fft_bitrev_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(
      total, logn, reinterpret_cast<const float2*>(x), reinterpret_cast<float2*>(y));
  if (logn == 0) return;
  const long long butterflies = total / 2;
  for (int s = 0; s < logn; ++s)
    fft_stage_kernel<<<(unsigned int)((butterflies + threads - 1) / threads), threads, 0, stream>>>(
        butterflies, logn, s, reinterpret_cast<float2*>(y));
}

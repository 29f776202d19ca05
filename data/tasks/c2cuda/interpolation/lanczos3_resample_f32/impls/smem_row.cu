// strategy: smem_row — a block owns 256 consecutive outputs of one signal: the input span they touch is staged into shared memory with one coalesced sweep (direct read-only loads when a strong downscale makes the span too long), then each thread evaluates its six Lanczos weights with sinpif and reads its taps from shared memory
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSpanCap = 4096;

__device__ __forceinline__ long long tap_floor(int j, int n, int m, float* frac) {
  const long long num = (long long)(2 * j + 1) * n - m, den = 2LL * m;
  const long long q = num >= 0 ? num / den : -1;  // num > -den always
  if (frac) *frac = (float)(num - q * den) / (float)den;
  return q;
}

__device__ __forceinline__ float lanczos3_w(float d) {
  if (d == 0.0f) return 1.0f;
  const float pi2 = 9.8696044010893586f;
  return 3.0f * sinpif(d) * sinpif(d * (1.0f / 3.0f)) / (pi2 * d * d);
}

__global__ void __launch_bounds__(kThreads)
lanczos_smem_row_kernel(int b, int n, int m, const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float span[kSpanCap];
  const int j0 = blockIdx.x * kThreads;
  const int jl = min(j0 + kThreads, m) - 1;
  const long long lo = max(tap_floor(j0, n, m, nullptr) - 2, 0LL);
  const long long hi = min(tap_floor(jl, n, m, nullptr) + 3, (long long)n - 1);
  const int len = (int)(hi - lo + 1);
  const bool staged = len <= kSpanCap;
  const int j = j0 + threadIdx.x;
  float frac = 0.0f;
  const long long q = tap_floor(min(j, m - 1), n, m, &frac);
  float wt[6];
  int idx[6];
  float wsum = 0.0f;
#pragma unroll
  for (int k = 0; k < 6; ++k) {
    const long long i = q + k - 2;
    idx[k] = (int)(i < 0 ? 0 : (i > n - 1 ? n - 1 : i));
    wt[k] = lanczos3_w(frac - (float)(k - 2));
    wsum += wt[k];
  }
  const float inv = 1.0f / wsum;
  for (int r = blockIdx.y; r < b; r += gridDim.y) {
    const float* row = in + (size_t)r * n;
    __syncthreads();
    if (staged)
      for (int i = threadIdx.x; i < len; i += kThreads) span[i] = __ldg(row + lo + i);
    __syncthreads();
    if (j < m) {
      float acc = 0.0f;
      if (staged) {
#pragma unroll
        for (int k = 0; k < 6; ++k) acc += wt[k] * span[idx[k] - lo];
      } else {
#pragma unroll
        for (int k = 0; k < 6; ++k) acc += wt[k] * __ldg(row + idx[k]);
      }
      out[(size_t)r * m + j] = acc * inv;
    }
  }
}

}  // namespace

extern "C" void lanczos3_resample_f32(int b, int n, int m, const float* in, float* out, cudaStream_t stream) {
  if (b <= 0 || m <= 0) return;
  dim3 grid((m + kThreads - 1) / kThreads, b < 65535 ? b : 65535);
  lanczos_smem_row_kernel<<<grid, kThreads, 0, stream>>>(b, n, m, in, out);
}

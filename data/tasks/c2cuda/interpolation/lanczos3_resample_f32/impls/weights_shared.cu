// strategy: weights_shared — the six normalised weights of an output position do not depend on the signal, so a block computes them once for 128 positions (only three sinpif-class calls each: sin(pi t), sincos(pi t/3) and the trig identities sin(pi(t-k)) = (-1)^k sin(pi t), sin(pi(t-k)/3) = sin(pi t/3)cos(pi k/3) - cos(pi t/3)sin(pi k/3)), keeps them in registers and sweeps 64 signals with coalesced read-only gathers and stores
#include <cuda_runtime.h>

namespace {

constexpr int kTJ = 128;  // output positions per block
constexpr int kTR = 2;    // signal lanes per position
constexpr int kRowsPerBlock = 64;

__global__ void __launch_bounds__(kTJ * kTR)
lanczos_weights_kernel(int b, int n, int m, const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sw[6][kTJ];
  __shared__ int sidx[6][kTJ];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = blockIdx.x * kTJ + tx;
  if (ty == 0 && j < m) {
    const long long num = (long long)(2 * j + 1) * n - m, den = 2LL * m;
    const long long q = num >= 0 ? num / den : -1;  // num > -den
    const float t = (float)(num - q * den) / (float)den;
    const float s1 = sinpif(t);
    float s3, c3;
    sincospif(t * (1.0f / 3.0f), &s3, &c3);
    const float h3 = 0.86602540378443865f;  // sqrt(3)/2
    // sin(pi (t - k) / 3) for k = -2..3; k = 1 is taken directly to avoid cancellation as t -> 1
    const float sb[6] = {0.5f * (-s3) + h3 * c3, 0.5f * s3 + h3 * c3, s3,
                         -sinpif((1.0f - t) * (1.0f / 3.0f)), -0.5f * s3 - h3 * c3, -s3};
    const float pi2 = 9.8696044010893586f;
    float w[6], wsum = 0.0f;
#pragma unroll
    for (int k = 0; k < 6; ++k) {
      const float d = t - (float)(k - 2);
      const float sa = (k & 1) ? -s1 : s1;  // (-1)^(k-2) sin(pi t)
      w[k] = d == 0.0f ? 1.0f : 3.0f * sa * sb[k] / (pi2 * d * d);
      wsum += w[k];
    }
    const float inv = 1.0f / wsum;
#pragma unroll
    for (int k = 0; k < 6; ++k) {
      const long long i = q + k - 2;
      sidx[k][tx] = (int)(i < 0 ? 0 : (i > n - 1 ? n - 1 : i));
      sw[k][tx] = w[k] * inv;
    }
  }
  __syncthreads();
  if (j >= m) return;
  float w[6];
  int idx[6];
#pragma unroll
  for (int k = 0; k < 6; ++k) {
    w[k] = sw[k][tx];
    idx[k] = sidx[k][tx];
  }
  const int r_end = min(b, (blockIdx.y + 1) * kRowsPerBlock);
  for (int r = blockIdx.y * kRowsPerBlock + ty; r < r_end; r += kTR) {
    const float* row = in + (size_t)r * n;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 6; ++k) acc = fmaf(w[k], __ldg(row + idx[k]), acc);
    __stcs(out + (size_t)r * m + j, acc);
  }
}

}  // namespace

extern "C" void lanczos3_resample_f32(int b, int n, int m, const float* in, float* out, cudaStream_t stream) {
  if (b <= 0 || m <= 0) return;
  dim3 block(kTJ, kTR);
  dim3 grid((m + kTJ - 1) / kTJ, (b + kRowsPerBlock - 1) / kRowsPerBlock);
  lanczos_weights_kernel<<<grid, block, 0, stream>>>(b, n, m, in, out);
}

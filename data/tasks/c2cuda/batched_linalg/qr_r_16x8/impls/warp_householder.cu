// strategy: warp_householder — 16 lanes per matrix (two per warp), lane i keeps row i (8 registers, two float4 loads); each Householder reflector is built and applied with width-16 __shfl_xor_sync butterfly reductions for the column norm and the reflector dot products, then the owning lane flips its R row to a non-negative diagonal
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ float seg16_sum(float x) {
#pragma unroll
  for (int off = 8; off > 0; off >>= 1) x += __shfl_xor_sync(kFull, x, off, 16);
  return x;
}

__global__ void __launch_bounds__(256) qr_householder_kernel(int batch, const float* __restrict__ A, float* __restrict__ R) {
  const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long b = g >> 4;
  const int i = threadIdx.x & 15;
  const bool valid = b < batch;
  float v[8];
  if (valid) {
    const float4* src = reinterpret_cast<const float4*>(A + b * 128 + i * 8);
    const float4 p = __ldcs(src), q = __ldcs(src + 1);
    v[0] = p.x; v[1] = p.y; v[2] = p.z; v[3] = p.w;
    v[4] = q.x; v[5] = q.y; v[6] = q.z; v[7] = q.w;
  } else {
#pragma unroll
    for (int c = 0; c < 8; ++c) v[c] = 0.0f;  // dummy half-warp: zero matrix, reflectors degenerate to identity
  }
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const float x = i >= j ? v[j] : 0.0f;
    const float norm = sqrtf(seg16_sum(x * x));
    const float ajj = __shfl_sync(kFull, v[j], j, 16);
    const float alpha = ajj >= 0.0f ? -norm : norm;
    const float vtv = 2.0f * norm * (norm + fabsf(ajj));
    const float scale = vtv > 0.0f ? 2.0f / vtv : 0.0f;
    const float hv = (i == j) ? ajj - alpha : x;  // Householder vector component of this row
#pragma unroll
    for (int c = j + 1; c < 8; ++c) {
      const float dot = seg16_sum(hv * v[c]);
      v[c] -= scale * dot * hv;
    }
    if (i == j) v[j] = alpha;
    else if (i > j) v[j] = 0.0f;
  }
  if (valid && i < 8) {
    float d = 0.0f;
#pragma unroll
    for (int c = 0; c < 8; ++c)
      if (c == i) d = v[c];
    const float sg = d < 0.0f ? -1.0f : 1.0f;
    float o[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) o[c] = c >= i ? sg * v[c] : 0.0f;
    float4* dst = reinterpret_cast<float4*>(R + b * 64 + i * 8);
    __stcs(dst, make_float4(o[0], o[1], o[2], o[3]));
    __stcs(dst + 1, make_float4(o[4], o[5], o[6], o[7]));
  }
}

}  // namespace

extern "C" void qr_r_16x8(int batch, const float* A, float* R, cudaStream_t stream) {
  if (batch <= 0) return;
  const long long lanes = (long long)batch * 16;
  const int threads = 256;
  qr_householder_kernel<<<(unsigned int)((lanes + threads - 1) / threads), threads, 0, stream>>>(batch, A, R);
}

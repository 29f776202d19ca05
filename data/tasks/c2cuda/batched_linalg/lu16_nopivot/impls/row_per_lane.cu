// strategy: row_per_lane — 16 lanes per matrix (two matrices per warp), lane r keeps row r in 16 registers (float4 loads), the pivot row is broadcast with width-16 __shfl_sync at every elimination step
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(256) lu16_rows_kernel(int batch, const float* __restrict__ A, float* __restrict__ LU) {
  const long long gt = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long b = gt >> 4;  // matrix of this half-warp
  const int r = threadIdx.x & 15;  // row owned by this lane
  const bool valid = b < batch;
  float v[16];
  if (valid) {
    const float4* src = reinterpret_cast<const float4*>(A + b * 256 + r * 16);
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const float4 t = __ldcs(src + q);
      v[4 * q + 0] = t.x;
      v[4 * q + 1] = t.y;
      v[4 * q + 2] = t.z;
      v[4 * q + 3] = t.w;
    }
  } else {
#pragma unroll
    for (int j = 0; j < 16; ++j) v[j] = 0.0f;  // dummy lanes factor 16*I, never stored
  }
#pragma unroll
  for (int j = 0; j < 16; ++j)
    if (j == r) v[j] += 16.0f;

  // every lane of the warp runs every shuffle (no early exit), so the full mask is legal
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const float p = __shfl_sync(kFull, v[k], k, 16);
    const bool below = r > k;
    const float l = v[k] / p;
    if (below) v[k] = l;
#pragma unroll
    for (int j = k + 1; j < 16; ++j) {
      const float u = __shfl_sync(kFull, v[j], k, 16);  // U[k][j], final since lane k finished step k-1
      if (below) v[j] -= l * u;
    }
  }

  if (valid) {
    float4* dst = reinterpret_cast<float4*>(LU + b * 256 + r * 16);
#pragma unroll
    for (int q = 0; q < 4; ++q) __stcs(dst + q, make_float4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]));
  }
}

}  // namespace

extern "C" void lu16_nopivot(int batch, const float* A, float* LU, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 256;  // 16 matrices per block
  const long long lanes = (long long)batch * 16;
  const long long blocks = (lanes + threads - 1) / threads;
  lu16_rows_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(batch, A, LU);
}

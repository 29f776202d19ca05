// strategy: shared_tiled — 32x32 output tiles, 32x8 thread blocks (4 outputs per thread); A and B 32x32 sub-tiles staged through shared memory (zero-padded at the edges) so each global element is loaded once per tile
#include <cuda_runtime.h>

#define TS 32
#define TY 8

__global__ void __launch_bounds__(TS * TY)
sgemm_tiled_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[TS][TS + 1];
  __shared__ float Bs[TS][TS + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
  float acc[TS / TY] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += TS) {
#pragma unroll
    for (int q = 0; q < TS / TY; ++q) {
      const int r = ty + q * TY;
      const int ga_r = row0 + r, ga_c = k0 + tx;
      As[r][tx] = (ga_r < M && ga_c < K) ? A[(size_t)ga_r * K + ga_c] : 0.f;
      const int gb_r = k0 + r, gb_c = col0 + tx;
      Bs[r][tx] = (gb_r < K && gb_c < N) ? B[(size_t)gb_r * N + gb_c] : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < TS; ++kk) {
      const float b = Bs[kk][tx];
#pragma unroll
      for (int q = 0; q < TS / TY; ++q) acc[q] = fmaf(As[ty + q * TY][kk], b, acc[q]);
    }
    __syncthreads();
  }
  const int c = col0 + tx;
  if (c < N) {
#pragma unroll
    for (int q = 0; q < TS / TY; ++q) {
      const int r = row0 + ty + q * TY;
      if (r < M) C[(size_t)r * N + c] = acc[q];
    }
  }
}

extern "C" void sgemm_f32(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(TS, TY);
  dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS);
  sgemm_tiled_kernel<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}

// strategy: smem_tiled — one 32x8 block per (matrix, 32x32 output tile) on a flattened 1-D grid; the A and B 32x32 sub-tiles are staged through shared memory (zero-filled outside the matrix), 4 outputs per thread accumulated in registers
#include <cuda_runtime.h>

#define TS 32
#define TY 8

__global__ void __launch_bounds__(TS * TY)
bmm_tiled_kernel(int m, int k, int n, int tiles_m, int tiles_n, const float* __restrict__ A,
                 const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[TS][TS + 1];
  __shared__ float Bs[TS][TS + 1];
  const long long blk = blockIdx.x;
  const int per = tiles_m * tiles_n;
  const long long b = blk / per;
  const int t = (int)(blk - b * per);
  const int row0 = (t / tiles_n) * TS, col0 = (t % tiles_n) * TS;
  const float* a = A + b * m * k;
  const float* bb = B + b * k * n;
  float* c = C + b * m * n;
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc[TS / TY] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < k; k0 += TS) {
#pragma unroll
    for (int q = 0; q < TS / TY; ++q) {
      const int r = ty + q * TY;
      const int ar = row0 + r, ac = k0 + tx;
      As[r][tx] = (ar < m && ac < k) ? a[(size_t)ar * k + ac] : 0.f;
      const int br = k0 + r, bc = col0 + tx;
      Bs[r][tx] = (br < k && bc < n) ? bb[(size_t)br * n + bc] : 0.f;
    }
    __syncthreads();
    const int kmax = min(TS, k - k0);
    for (int kk = 0; kk < kmax; ++kk) {
      const float bv = Bs[kk][tx];
#pragma unroll
      for (int q = 0; q < TS / TY; ++q) acc[q] = fmaf(As[ty + q * TY][kk], bv, acc[q]);
    }
    __syncthreads();
  }
  const int col = col0 + tx;
  if (col < n) {
#pragma unroll
    for (int q = 0; q < TS / TY; ++q) {
      const int row = row0 + ty + q * TY;
      if (row < m) c[(size_t)row * n + col] = acc[q];
    }
  }
}

extern "C" void batched_matmul_f32(int batch, int m, int k, int n, const float* A, const float* B, float* C,
                                   cudaStream_t stream) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  const int tiles_m = (m + TS - 1) / TS, tiles_n = (n + TS - 1) / TS;
  const long long blocks = (long long)batch * tiles_m * tiles_n;
  bmm_tiled_kernel<<<(unsigned)blocks, dim3(TS, TY), 0, stream>>>(m, k, n, tiles_m, tiles_n, A, B, C);
}

// strategy: register_blocked — 128x64 block tiles with 16-deep K slabs in shared memory (A stored transposed), each of 256 threads accumulates an 8x4 micro-tile in registers; bias+ReLU fused on the register tile before the store
#include <cuda_runtime.h>

namespace {

constexpr int BM = 128, BN = 64, BK = 16;
constexpr int TM = 8, TN = 4;
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256: 16 x 16 threads

__global__ void __launch_bounds__(kThreads)
gemm_bias_relu_regblock_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                               const float* __restrict__ bias, float* __restrict__ C) {
  __shared__ float As[BK][BM + 4];  // transposed: As[k][m]
  __shared__ float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % 16;  // column group: columns tx + 16*j
  const int ty = tid / 16;  // row group: rows ty + 16*i
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    // A slab: BM x BK = 2048 elements, 8 per thread; consecutive threads take consecutive k of one row
#pragma unroll
    for (int l = 0; l < (BM * BK) / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int r = idx / BK, c = idx % BK;
      const int gr = row0 + r, gc = k0 + c;
      As[c][r] = (gr < M && gc < K) ? A[(long long)gr * K + gc] : 0.0f;
    }
    // B slab: BK x BN = 1024 elements, 4 per thread; consecutive threads take consecutive columns
#pragma unroll
    for (int l = 0; l < (BK * BN) / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int r = idx / BN, c = idx % BN;
      const int gr = k0 + r, gc = col0 + c;
      Bs[r][c] = (gr < K && gc < N) ? B[(long long)gr * N + gc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

  float bv[TN];
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const int gc = col0 + tx + 16 * j;
    bv[j] = gc < N ? bias[gc] : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int gr = row0 + ty + 16 * i;
    if (gr >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int gc = col0 + tx + 16 * j;
      if (gc < N) {
        const float v = acc[i][j] + bv[j];
        C[(long long)gr * N + gc] = v > 0.0f ? v : 0.0f;
      }
    }
  }
}

}  // namespace

extern "C" void gemm_bias_relu_f32(int M, int N, int K, const float* A, const float* B, const float* bias, float* C,
                                   cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  gemm_bias_relu_regblock_kernel<<<grid, kThreads, 0, stream>>>(M, N, K, A, B, bias, C);
}

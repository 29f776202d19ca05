// strategy: column_strip — a block owns a 16-row x 256-column panel: the A panel and B slab are staged in shared memory 32 K-values at a time, each thread owns one column and keeps 16 row accumulators in registers (A values are shared-memory broadcasts), so every output row is stored as one fully coalesced 1 KiB segment
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kRows = 16;
constexpr int kCols = 256;  // = threads per block
constexpr int kChunk = 32;

__device__ __forceinline__ float gelu_tanh(float v) {
  return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

__global__ void __launch_bounds__(kCols)
gemm_smallk_gelu_strip_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                              const float* __restrict__ colscale, float* __restrict__ out) {
  __shared__ float As[kRows][kChunk];
  __shared__ float Bs[kChunk][kCols];
  const int row0 = blockIdx.y * kRows;
  const int col = blockIdx.x * kCols + threadIdx.x;
  float acc[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) acc[r] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += kChunk) {
    const int kc = min(kChunk, K - k0);
    for (int idx = threadIdx.x; idx < kRows * kChunk; idx += kCols) {
      const int r = idx / kChunk, c = idx % kChunk;
      As[r][c] = (row0 + r < M && c < kc) ? A[(long long)(row0 + r) * K + k0 + c] : 0.0f;
    }
    for (int kk = 0; kk < kChunk; ++kk)
      Bs[kk][threadIdx.x] = (kk < kc && col < N) ? B[(long long)(k0 + kk) * N + col] : 0.0f;
    __syncthreads();
    for (int kk = 0; kk < kc; ++kk) {
      const float bv = Bs[kk][threadIdx.x];
#pragma unroll
      for (int r = 0; r < kRows; ++r) acc[r] += As[r][kk] * bv;
    }
    __syncthreads();
  }

  if (col >= N) return;
  const float cs = colscale[col];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    if (row0 + r < M) out[(long long)(row0 + r) * N + col] = gelu_tanh(cs * acc[r]);
  }
}

}  // namespace

extern "C" void gemm_smallk_scale_gelu_f32(int M, int N, int K, const float* A, const float* B, const float* colscale,
                                           float* out, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + kCols - 1) / kCols, (M + kRows - 1) / kRows);
  gemm_smallk_gelu_strip_kernel<<<grid, kCols, 0, stream>>>(M, N, K, A, B, colscale, out);
}

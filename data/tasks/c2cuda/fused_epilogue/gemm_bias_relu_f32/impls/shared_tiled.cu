// strategy: shared_tiled — 32x32 output tiles, A and B staged through shared memory in 32-wide K slabs, one output per thread, bias+ReLU applied in registers before a coalesced store
#include <cuda_runtime.h>

namespace {

constexpr int T = 32;

__global__ void __launch_bounds__(T * T)
gemm_bias_relu_tiled_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                            const float* __restrict__ bias, float* __restrict__ C) {
  __shared__ float As[T][T + 1];
  __shared__ float Bs[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty;
  const int col = blockIdx.x * T + tx;
  float s = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    const int ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < M && ka < K) ? A[(long long)row * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? B[(long long)kb * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < T; ++kk) s += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  if (row < M && col < N) {
    s += bias[col];
    C[(long long)row * N + col] = s > 0.0f ? s : 0.0f;
  }
}

}  // namespace

extern "C" void gemm_bias_relu_f32(int M, int N, int K, const float* A, const float* B, const float* bias, float* C,
                                   cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(T, T);
  dim3 grid((N + T - 1) / T, (M + T - 1) / T);
  gemm_bias_relu_tiled_kernel<<<grid, block, 0, stream>>>(M, N, K, A, B, bias, C);
}

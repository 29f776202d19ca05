// strategy: shared_tiled — one fused kernel: 16x16 output tile per block, X, W1 and W2 slabs staged in shared memory, each thread keeps both dot products in registers and applies the silu gate before a single store
#include <cuda_runtime.h>

namespace {

constexpr int T = 16;

__global__ void __launch_bounds__(T * T)
swiglu_tiled_kernel(int M, int N, int K, const float* __restrict__ X, const float* __restrict__ W1,
                    const float* __restrict__ W2, float* __restrict__ out) {
  __shared__ float Xs[T][T + 1];
  __shared__ float W1s[T][T];
  __shared__ float W2s[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty;
  const int col = blockIdx.x * T + tx;
  float g = 0.0f, h = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    const int kx = k0 + tx, kw = k0 + ty;
    Xs[ty][tx] = (row < M && kx < K) ? X[(long long)row * K + kx] : 0.0f;
    const bool wok = kw < K && col < N;
    W1s[ty][tx] = wok ? W1[(long long)kw * N + col] : 0.0f;
    W2s[ty][tx] = wok ? W2[(long long)kw * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < T; ++kk) {
      const float x = Xs[ty][kk];
      g += x * W1s[kk][tx];
      h += x * W2s[kk][tx];
    }
    __syncthreads();
  }
  if (row < M && col < N) out[(long long)row * N + col] = g * (h / (1.0f + expf(-h)));
}

}  // namespace

extern "C" void swiglu_linear_f32(int M, int N, int K, const float* X, const float* W1, const float* W2, float* out,
                                  cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(T, T);
  dim3 grid((N + T - 1) / T, (M + T - 1) / T);
  swiglu_tiled_kernel<<<grid, block, 0, stream>>>(M, N, K, X, W1, W2, out);
}

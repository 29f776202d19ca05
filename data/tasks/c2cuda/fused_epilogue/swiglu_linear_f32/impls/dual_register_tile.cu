// strategy: dual_register_tile — 64x64 block tiles, 16-deep K slabs of X (transposed), W1 and W2 in shared memory; each thread holds a 4x4 micro-tile of both G and H in registers (one X fragment feeds both products) and gates them in the epilogue
#include <cuda_runtime.h>

namespace {

constexpr int BM = 64, BN = 64, BK = 16;
constexpr int TM = 4, TN = 4;
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256

__global__ void __launch_bounds__(kThreads)
swiglu_dual_kernel(int M, int N, int K, const float* __restrict__ X, const float* __restrict__ W1,
                   const float* __restrict__ W2, float* __restrict__ out) {
  __shared__ float Xs[BK][BM + 4];
  __shared__ float W1s[BK][BN];
  __shared__ float W2s[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  float g[TM][TN], h[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      g[i][j] = 0.0f;
      h[i][j] = 0.0f;
    }

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int l = 0; l < (BM * BK) / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int r = idx / BK, c = idx % BK;
      const int gr = row0 + r, gc = k0 + c;
      Xs[c][r] = (gr < M && gc < K) ? X[(long long)gr * K + gc] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < (BK * BN) / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int r = idx / BN, c = idx % BN;
      const int gr = k0 + r, gc = col0 + c;
      const bool ok = gr < K && gc < N;
      W1s[r][c] = ok ? W1[(long long)gr * N + gc] : 0.0f;
      W2s[r][c] = ok ? W2[(long long)gr * N + gc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b1[TN], b2[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = Xs[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        b1[j] = W1s[kk][tx + 16 * j];
        b2[j] = W2s[kk][tx + 16 * j];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
          g[i][j] += a[i] * b1[j];
          h[i][j] += a[i] * b2[j];
        }
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int gr = row0 + ty + 16 * i;
    if (gr >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int gc = col0 + tx + 16 * j;
      if (gc < N) {
        const float hv = h[i][j];
        out[(long long)gr * N + gc] = g[i][j] * (hv / (1.0f + expf(-hv)));
      }
    }
  }
}

}  // namespace

extern "C" void swiglu_linear_f32(int M, int N, int K, const float* X, const float* W1, const float* W2, float* out,
                                  cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  swiglu_dual_kernel<<<grid, kThreads, 0, stream>>>(M, N, K, X, W1, W2, out);
}

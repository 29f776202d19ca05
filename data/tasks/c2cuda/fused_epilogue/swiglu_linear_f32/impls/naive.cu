// strategy: naive (weak) — two separate GEMM kernels write G and H to scratch with one thread per output (threadIdx.x over rows: uncoalesced), then an elementwise kernel applies the gate; no reuse, extra global round trips
#include <cuda_runtime.h>

__global__ void swiglu_naive_gemm_kernel(int M, int N, int K, const float* X, const float* W, float* Y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  float s = 0.0f;
  for (int k = 0; k < K; ++k) s += X[(long long)i * K + k] * W[(long long)k * N + j];
  Y[(long long)i * N + j] = s;
}

__global__ void swiglu_naive_gate_kernel(long long total, const float* G, const float* H, float* out) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= total) return;
  const float h = H[t];
  out[t] = G[t] * (h / (1.0f + expf(-h)));
}

extern "C" void swiglu_linear_f32(int M, int N, int K, const float* X, const float* W1, const float* W2, float* out,
                                  cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  const long long total = (long long)M * N;
  float* G = nullptr;
  float* H = nullptr;
  cudaMallocAsync((void**)&G, sizeof(float) * total, stream);
  cudaMallocAsync((void**)&H, sizeof(float) * total, stream);
  dim3 block(16, 16);
  dim3 grid((M + 15) / 16, (N + 15) / 16);
  swiglu_naive_gemm_kernel<<<grid, block, 0, stream>>>(M, N, K, X, W1, G);
  swiglu_naive_gemm_kernel<<<grid, block, 0, stream>>>(M, N, K, X, W2, H);
  swiglu_naive_gate_kernel<<<(unsigned int)((total + 255) / 256), 256, 0, stream>>>(total, G, H, out);
  cudaFreeAsync(G, stream);
  cudaFreeAsync(H, stream);
}

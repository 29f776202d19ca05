// strategy: naive (weak) — one thread per matrix, Householder QR on a dynamically indexed 16x8 working copy (local memory), scalar loads strided by 512 bytes across the warp
#include <cuda_runtime.h>

__global__ void qr_naive_kernel(int batch, const float* A, float* R) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* a = A + (size_t)b * 128;
  float w[16][8];
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) w[i][j] = a[i * 8 + j];
  for (int j = 0; j < 8; ++j) {
    float norm2 = 0.0f;
    for (int i = j; i < 16; ++i) norm2 += w[i][j] * w[i][j];
    const float norm = sqrtf(norm2);
    const float ajj = w[j][j];
    const float alpha = ajj >= 0.0f ? -norm : norm;
    const float vtv = 2.0f * norm * (norm + fabsf(ajj));
    if (vtv > 0.0f) {
      w[j][j] = ajj - alpha;  // column j now holds the Householder vector
      for (int c = j + 1; c < 8; ++c) {
        float dot = 0.0f;
        for (int i = j; i < 16; ++i) dot += w[i][j] * w[i][c];
        const float f = 2.0f * dot / vtv;
        for (int i = j; i < 16; ++i) w[i][c] -= f * w[i][j];
      }
    }
    w[j][j] = alpha;
  }
  float* r = R + (size_t)b * 64;
  for (int i = 0; i < 8; ++i) {
    const float sg = w[i][i] < 0.0f ? -1.0f : 1.0f;
    for (int j = 0; j < 8; ++j) r[i * 8 + j] = j >= i ? sg * w[i][j] : 0.0f;
  }
}

extern "C" void qr_r_16x8(int batch, const float* A, float* R, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 128;
  qr_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, A, R);
}

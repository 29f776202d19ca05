// strategy: naive (weak) — one thread per matrix, textbook cyclic Jacobi on a full 8x8 copy in a dynamically indexed local-memory array (rows and columns rotated separately), fixed sweep count, insertion sort
#include <cuda_runtime.h>

__global__ void eig8_naive_kernel(int batch, const float* A, float* eig) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* a = A + (size_t)b * 64;
  float s[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) s[i][j] = 0.5f * (a[i * 8 + j] + a[j * 8 + i]);
  for (int sweep = 0; sweep < 10; ++sweep) {
    for (int p = 0; p < 7; ++p)
      for (int q = p + 1; q < 8; ++q) {
        const float apq = s[p][q];
        if (apq == 0.0f) continue;
        const float theta = (s[q][q] - s[p][p]) / (2.0f * apq);
        const float t = (theta >= 0.0f ? 1.0f : -1.0f) / (fabsf(theta) + sqrtf(theta * theta + 1.0f));
        const float c = 1.0f / sqrtf(t * t + 1.0f), sn = t * c;
        for (int r = 0; r < 8; ++r) {
          const float rp = s[r][p], rq = s[r][q];
          s[r][p] = c * rp - sn * rq;
          s[r][q] = sn * rp + c * rq;
        }
        for (int r = 0; r < 8; ++r) {
          const float pr = s[p][r], qr = s[q][r];
          s[p][r] = c * pr - sn * qr;
          s[q][r] = sn * pr + c * qr;
        }
        s[p][q] = s[q][p] = 0.0f;
      }
  }
  float d[8];
  for (int i = 0; i < 8; ++i) d[i] = s[i][i];
  for (int i = 1; i < 8; ++i) {
    const float v = d[i];
    int j = i - 1;
    while (j >= 0 && d[j] > v) {
      d[j + 1] = d[j];
      --j;
    }
    d[j + 1] = v;
  }
  for (int i = 0; i < 8; ++i) eig[(size_t)b * 8 + i] = d[i];
}

extern "C" void sym_eig8_jacobi(int batch, const float* A, float* eig, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 128;
  eig8_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, A, eig);
}

// strategy: naive (weak) — one thread per query streams every reference row from global memory (no reuse between threads beyond the cache) and keeps its top-8 in a dynamically indexed local-memory insertion list
#include <cuda_runtime.h>
#include <float.h>

__global__ void knn_naive_kernel(int nq, int nr, int dim, const float* q, const float* r, float* dist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  const float* qi = q + (long long)i * dim;
  float best[8];
  for (int k = 0; k < 8; ++k) best[k] = FLT_MAX;
  for (int j = 0; j < nr; ++j) {
    const float* rj = r + (long long)j * dim;
    float d = 0.0f;
    for (int c = 0; c < dim; ++c) {
      float t = qi[c] - rj[c];
      d += t * t;
    }
    if (d < best[7]) {
      int k = 7;
      while (k > 0 && best[k - 1] > d) {
        best[k] = best[k - 1];
        --k;
      }
      best[k] = d;
    }
  }
  for (int k = 0; k < 8; ++k) dist[8 * (long long)i + k] = best[k];
}

extern "C" void knn8_bruteforce(int nq, int nr, int dim, const float* q, const float* r, float* dist,
                                cudaStream_t stream) {
  if (nq <= 0) return;
  const int threads = 128;
  knn_naive_kernel<<<(nq + threads - 1) / threads, threads, 0, stream>>>(nq, nr, dim, q, r, dist);
}

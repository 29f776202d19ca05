// strategy: naive (weak) — one thread per query walks every sample straight from global memory (three scalar loads per sample, no reuse through shared memory) with an IEEE division for each weight and a single running sum pair
#include <cuda_runtime.h>

__global__ void shepard_naive_kernel(int ns, int nq, float eps, const float* sx, const float* sy, const float* sv,
                                     const float* qx, const float* qy, float* out) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nq) return;
  float x = qx[q], y = qy[q];
  float num = 0.0f, den = 0.0f;
  for (int i = 0; i < ns; ++i) {
    float dx = x - sx[i], dy = y - sy[i];
    float w = 1.0f / (dx * dx + dy * dy + eps);
    num += w * sv[i];
    den += w;
  }
  out[q] = num / den;
}

extern "C" void shepard_idw_f32(int ns, int nq, float eps, const float* sx, const float* sy, const float* sv,
                                const float* qx, const float* qy, float* out, cudaStream_t stream) {
  if (nq <= 0) return;
  const int threads = 256;
  shepard_naive_kernel<<<(nq + threads - 1) / threads, threads, 0, stream>>>(ns, nq, eps, sx, sy, sv, qx, qy, out);
}

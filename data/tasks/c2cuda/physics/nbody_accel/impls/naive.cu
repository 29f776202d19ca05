// strategy: naive (weak) — one thread per body reading every other body straight from global memory, sqrtf + powf-style division, tiny blocks
#include <cuda_runtime.h>

__global__ void nbody_naive_kernel(int n, float eps2, const float* x, const float* y,
                                   const float* z, const float* m, float* ax, float* ay,
                                   float* az) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sx = 0.f, sy = 0.f, sz = 0.f;
  for (int j = 0; j < n; ++j) {
    float dx = x[j] - x[i];
    float dy = y[j] - y[i];
    float dz = z[j] - z[i];
    float r2 = dx * dx + dy * dy + dz * dz + eps2;
    float r = sqrtf(r2);
    float s = m[j] / (r2 * r);
    sx += s * dx;
    sy += s * dy;
    sz += s * dz;
  }
  ax[i] = sx;
  ay[i] = sy;
  az[i] = sz;
}

extern "C" void nbody_accel(int n, float eps2, const float* x, const float* y, const float* z,
                            const float* m, float* ax, float* ay, float* az,
                            cudaStream_t stream) {
  if (n <= 0) return;
  const int block = 32;
  nbody_naive_kernel<<<(n + block - 1) / block, block, 0, stream>>>(n, eps2, x, y, z, m, ax, ay,
                                                                     az);
}

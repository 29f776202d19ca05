// strategy: naive (weak) — one thread per particle in 32-thread blocks, every partner read directly from global memory, no reuse
#include <cuda_runtime.h>

namespace {
__global__ void lj_naive(int n, double rc, double box, const double* x, const double* y,
                         const double* z, double* fx, double* fy, double* fz) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double sx = 0.0, sy = 0.0, sz = 0.0;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    double dx = x[j] - x[i];
    double dy = y[j] - y[i];
    double dz = z[j] - z[i];
    dx = (dx - rint(dx)) * box;
    dy = (dy - rint(dy)) * box;
    dz = (dz - rint(dz)) * box;
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < rc * rc) {
      const double inv2 = 1.0 / r2;
      const double inv6 = inv2 * inv2 * inv2;
      const double s = 24.0 * inv2 * inv6 * (2.0 * inv6 - 1.0);
      sx -= s * dx;
      sy -= s * dy;
      sz -= s * dz;
    }
  }
  fx[i] = sx;
  fy[i] = sy;
  fz[i] = sz;
}
}  // namespace

extern "C" void lj_forces(int n, double rc, double box, const double* x, const double* y,
                          const double* z, double* fx, double* fy, double* fz,
                          cudaStream_t stream) {
  if (n <= 0) return;
  lj_naive<<<(n + 31) / 32, 32, 0, stream>>>(n, rc, box, x, y, z, fx, fy, fz);
}

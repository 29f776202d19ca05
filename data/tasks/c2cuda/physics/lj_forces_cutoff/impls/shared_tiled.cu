// strategy: shared_tiled — partner positions staged in shared-memory tiles of 128, one target particle per thread, cheap distance test before the force math
#include <cuda_runtime.h>

namespace {
constexpr int kTile = 128;

__global__ void __launch_bounds__(kTile)
lj_tiled(int n, double rc2, double box, const double* __restrict__ x,
         const double* __restrict__ y, const double* __restrict__ z, double* __restrict__ fx,
         double* __restrict__ fy, double* __restrict__ fz) {
  __shared__ double tx[kTile], ty[kTile], tz[kTile];
  const int i = blockIdx.x * kTile + threadIdx.x;
  const bool active = i < n;
  const double xi = active ? x[i] : 0.0;
  const double yi = active ? y[i] : 0.0;
  const double zi = active ? z[i] : 0.0;
  double sx = 0.0, sy = 0.0, sz = 0.0;
  for (int base = 0; base < n; base += kTile) {
    const int j = base + threadIdx.x;
    if (j < n) {
      tx[threadIdx.x] = x[j];
      ty[threadIdx.x] = y[j];
      tz[threadIdx.x] = z[j];
    }
    __syncthreads();
    const int cnt = min(kTile, n - base);
    for (int k = 0; k < cnt; ++k) {
      if (base + k == i) continue;
      double dx = tx[k] - xi;
      double dy = ty[k] - yi;
      double dz = tz[k] - zi;
      dx = (dx - rint(dx)) * box;
      dy = (dy - rint(dy)) * box;
      dz = (dz - rint(dz)) * box;
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        const double inv2 = 1.0 / r2;
        const double inv6 = inv2 * inv2 * inv2;
        const double s = 24.0 * inv2 * inv6 * (2.0 * inv6 - 1.0);
        sx -= s * dx;
        sy -= s * dy;
        sz -= s * dz;
      }
    }
    __syncthreads();
  }
  if (active) {
    fx[i] = sx;
    fy[i] = sy;
    fz[i] = sz;
  }
}
}  // namespace

extern "C" void lj_forces(int n, double rc, double box, const double* x, const double* y,
                          const double* z, double* fx, double* fy, double* fz,
                          cudaStream_t stream) {
  if (n <= 0) return;
  lj_tiled<<<(n + kTile - 1) / kTile, kTile, 0, stream>>>(n, rc * rc, box, x, y, z, fx, fy, fz);
}

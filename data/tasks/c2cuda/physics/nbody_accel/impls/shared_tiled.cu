// strategy: shared_tiled — bodies staged in shared memory as float4 tiles of 256, one target body per thread, rsqrtf
#include <cuda_runtime.h>

namespace {
constexpr int kTile = 256;

__global__ void __launch_bounds__(kTile)
nbody_tiled_kernel(int n, float eps2, const float* __restrict__ x, const float* __restrict__ y,
                   const float* __restrict__ z, const float* __restrict__ m,
                   float* __restrict__ ax, float* __restrict__ ay, float* __restrict__ az) {
  __shared__ float4 tile[kTile];
  const int i = blockIdx.x * kTile + threadIdx.x;
  const bool active = i < n;
  const float xi = active ? x[i] : 0.f;
  const float yi = active ? y[i] : 0.f;
  const float zi = active ? z[i] : 0.f;
  float sx = 0.f, sy = 0.f, sz = 0.f;
  for (int base = 0; base < n; base += kTile) {
    const int j = base + threadIdx.x;
    // padding bodies have zero mass, so they contribute exactly nothing
    tile[threadIdx.x] = (j < n) ? make_float4(x[j], y[j], z[j], m[j])
                                : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < kTile; ++k) {
      const float4 b = tile[k];
      const float dx = b.x - xi;
      const float dy = b.y - yi;
      const float dz = b.z - zi;
      const float r2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
      const float inv = rsqrtf(r2);
      const float s = b.w * inv * inv * inv;
      sx = fmaf(s, dx, sx);
      sy = fmaf(s, dy, sy);
      sz = fmaf(s, dz, sz);
    }
    __syncthreads();
  }
  if (active) {
    ax[i] = sx;
    ay[i] = sy;
    az[i] = sz;
  }
}
}  // namespace

extern "C" void nbody_accel(int n, float eps2, const float* x, const float* y, const float* z,
                            const float* m, float* ax, float* ay, float* az,
                            cudaStream_t stream) {
  if (n <= 0) return;
  nbody_tiled_kernel<<<(n + kTile - 1) / kTile, kTile, 0, stream>>>(n, eps2, x, y, z, m, ax, ay,
                                                                     az);
}

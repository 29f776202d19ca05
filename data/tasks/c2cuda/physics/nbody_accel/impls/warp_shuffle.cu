// strategy: warp_shuffle — no shared memory: each lane loads one source body and the warp broadcasts it to all lanes with __shfl_sync
#include <cuda_runtime.h>

namespace {
__global__ void nbody_shfl_kernel(int n, float eps2, const float* __restrict__ x,
                                  const float* __restrict__ y, const float* __restrict__ z,
                                  const float* __restrict__ m, float* __restrict__ ax,
                                  float* __restrict__ ay, float* __restrict__ az) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  // whole warps stay alive so the shuffles are well defined; padding lanes compute garbage-free zeros
  const bool active = i < n;
  const float xi = active ? x[i] : 0.f;
  const float yi = active ? y[i] : 0.f;
  const float zi = active ? z[i] : 0.f;
  float sx = 0.f, sy = 0.f, sz = 0.f;
  for (int base = 0; base < n; base += 32) {
    const int j = base + lane;
    const float bx = (j < n) ? x[j] : 0.f;
    const float by = (j < n) ? y[j] : 0.f;
    const float bz = (j < n) ? z[j] : 0.f;
    const float bm = (j < n) ? m[j] : 0.f;
#pragma unroll 8
    for (int k = 0; k < 32; ++k) {
      const float dx = __shfl_sync(0xffffffffu, bx, k) - xi;
      const float dy = __shfl_sync(0xffffffffu, by, k) - yi;
      const float dz = __shfl_sync(0xffffffffu, bz, k) - zi;
      const float mk = __shfl_sync(0xffffffffu, bm, k);
      const float r2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
      const float inv = rsqrtf(r2);
      const float s = mk * inv * inv * inv;
      sx = fmaf(s, dx, sx);
      sy = fmaf(s, dy, sy);
      sz = fmaf(s, dz, sz);
    }
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
  const int block = 128;  // multiple of 32: every warp is full-width
  nbody_shfl_kernel<<<(n + block - 1) / block, block, 0, stream>>>(n, eps2, x, y, z, m, ax, ay,
                                                                    az);
}

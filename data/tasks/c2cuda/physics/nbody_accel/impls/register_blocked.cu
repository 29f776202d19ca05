// strategy: register_blocked — each thread owns 4 target bodies (strided by blockDim) so every shared-memory body load feeds 4 interactions
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 128;
constexpr int kPer = 4;  // targets per thread
constexpr int kTargetsPerBlock = kThreads * kPer;

__global__ void __launch_bounds__(kThreads)
nbody_regblock_kernel(int n, float eps2, const float* __restrict__ x,
                      const float* __restrict__ y, const float* __restrict__ z,
                      const float* __restrict__ m, float* __restrict__ ax,
                      float* __restrict__ ay, float* __restrict__ az) {
  __shared__ float4 tile[kThreads];
  const int first = blockIdx.x * kTargetsPerBlock + threadIdx.x;
  float xi[kPer], yi[kPer], zi[kPer], sx[kPer], sy[kPer], sz[kPer];
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const int i = first + q * kThreads;
    xi[q] = (i < n) ? x[i] : 0.f;
    yi[q] = (i < n) ? y[i] : 0.f;
    zi[q] = (i < n) ? z[i] : 0.f;
    sx[q] = sy[q] = sz[q] = 0.f;
  }
  for (int base = 0; base < n; base += kThreads) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = (j < n) ? make_float4(x[j], y[j], z[j], m[j])
                                : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < kThreads; ++k) {
      const float4 b = tile[k];
#pragma unroll
      for (int q = 0; q < kPer; ++q) {
        const float dx = b.x - xi[q];
        const float dy = b.y - yi[q];
        const float dz = b.z - zi[q];
        const float r2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
        const float inv = rsqrtf(r2);
        const float s = b.w * inv * inv * inv;
        sx[q] = fmaf(s, dx, sx[q]);
        sy[q] = fmaf(s, dy, sy[q]);
        sz[q] = fmaf(s, dz, sz[q]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const int i = first + q * kThreads;
    if (i < n) {
      ax[i] = sx[q];
      ay[i] = sy[q];
      az[i] = sz[q];
    }
  }
}
}  // namespace

extern "C" void nbody_accel(int n, float eps2, const float* x, const float* y, const float* z,
                            const float* m, float* ax, float* ay, float* az,
                            cudaStream_t stream) {
  if (n <= 0) return;
  const int blocks = (n + kTargetsPerBlock - 1) / kTargetsPerBlock;
  nbody_regblock_kernel<<<blocks, kThreads, 0, stream>>>(n, eps2, x, y, z, m, ax, ay, az);
}

// strategy: shared_tiled — the block stages 1024-segment tiles in shared memory with each segment pre-digested at staging time into (a, b - a) and 1/|b - a|^2, so the inner loop is division-free; 2 points per thread, min of squared distances, one sqrt per point
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kTile = 1024;

__global__ void __launch_bounds__(kThreads)
polydist_tiled_kernel(int n, int nv, const float2* __restrict__ p, const float2* __restrict__ v, float* __restrict__ out) {
  __shared__ float4 seg[kTile];  // ax, ay, ex, ey
  __shared__ float inv[kTile];   // 1 / |e|^2, or 0 for a zero-length segment
  const int i0 = blockIdx.x * (2 * kThreads) + threadIdx.x;
  const int i1 = i0 + kThreads;
  const float2 a0 = __ldg(v);
  const float2 q0 = __ldg(p + min(i0, n - 1));
  const float2 q1 = __ldg(p + min(i1, n - 1));
  float b0, b1;
  {
    float dx = q0.x - a0.x, dy = q0.y - a0.y;
    b0 = fmaf(dx, dx, dy * dy);
    dx = q1.x - a0.x; dy = q1.y - a0.y;
    b1 = fmaf(dx, dx, dy * dy);
  }
  const int nseg = nv - 1;
  for (int t0 = 0; t0 < nseg; t0 += kTile) {
    const int cnt = min(kTile, nseg - t0);
    __syncthreads();
    for (int e = threadIdx.x; e < cnt; e += kThreads) {
      const float2 a = __ldg(v + t0 + e), b = __ldg(v + t0 + e + 1);
      const float ex = b.x - a.x, ey = b.y - a.y;
      const float len2 = fmaf(ex, ex, ey * ey);
      seg[e] = make_float4(a.x, a.y, ex, ey);
      inv[e] = len2 > 0.0f ? 1.0f / len2 : 0.0f;
    }
    __syncthreads();
#pragma unroll 2
    for (int e = 0; e < cnt; ++e) {
      const float4 s = seg[e];
      const float w = inv[e];
      float ux = q0.x - s.x, uy = q0.y - s.y;
      float t = __saturatef(fmaf(ux, s.z, uy * s.w) * w);
      float dx = fmaf(-t, s.z, ux), dy = fmaf(-t, s.w, uy);
      b0 = fminf(b0, fmaf(dx, dx, dy * dy));
      ux = q1.x - s.x; uy = q1.y - s.y;
      t = __saturatef(fmaf(ux, s.z, uy * s.w) * w);
      dx = fmaf(-t, s.z, ux); dy = fmaf(-t, s.w, uy);
      b1 = fminf(b1, fmaf(dx, dx, dy * dy));
    }
  }
  if (i0 < n) out[i0] = sqrtf(b0);
  if (i1 < n) out[i1] = sqrtf(b1);
}

}  // namespace

extern "C" void polyline_distance(int n, int nv, const float* p, const float* v, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int per_block = 2 * kThreads;
  polydist_tiled_kernel<<<(n + per_block - 1) / per_block, kThreads, 0, stream>>>(
      n, nv, reinterpret_cast<const float2*>(p), reinterpret_cast<const float2*>(v), out);
}

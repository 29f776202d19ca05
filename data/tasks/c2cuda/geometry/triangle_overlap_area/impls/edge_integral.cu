// strategy: edge_integral — no polygon is built: by Green's theorem the overlap area is half the sum of x dy - y dx over the boundary of A n B, i.e. over A's edges clipped to B plus B's edges clipped to A (Cyrus-Beck parameter intervals against three half-planes each), all in registers. Every overlap vertex is found twice (once on each edge), and for nearly parallel edges the two float answers disagree enough to break the tolerance, so the edge math runs in FP64 with the origin moved to A's first vertex; a streaming kernel with float2 loads
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

struct P2 {
  double x, y;
};

__device__ __forceinline__ double orient(P2 a, P2 b, P2 c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// x dy - y dx of the part of segment p -> q inside the counter-clockwise triangle (c0, c1, c2)
__device__ __forceinline__ double clipped_term(P2 p, P2 q, P2 c0, P2 c1, P2 c2) {
  double t0 = 0.0, t1 = 1.0;
  bool empty = false;
  const P2 c[4] = {c0, c1, c2, c0};
#pragma unroll
  for (int e = 0; e < 3; ++e) {
    const double fp = orient(c[e], c[e + 1], p), fq = orient(c[e], c[e + 1], q);
    const bool pin = fp >= 0.0, qin = fq >= 0.0;
    empty |= !pin && !qin;
    if (pin != qin) {
      const double ts = fp / (fp - fq);
      if (!pin) t0 = fmax(t0, ts); else t1 = fmin(t1, ts);
    }
  }
  if (empty || !(t0 < t1)) return 0.0;
  const double dx = q.x - p.x, dy = q.y - p.y;
  const double x0 = fma(t0, dx, p.x), y0 = fma(t0, dy, p.y);
  const double x1 = fma(t1, dx, p.x), y1 = fma(t1, dy, p.y);
  return x0 * y1 - x1 * y0;
}

__global__ void __launch_bounds__(kThreads)
overlap_green_kernel(int n, const float2* __restrict__ ta, const float2* __restrict__ tb, float* __restrict__ area) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 a0 = __ldcs(ta + 3 * i), a1 = __ldcs(ta + 3 * i + 1), a2 = __ldcs(ta + 3 * i + 2);
  float2 b0 = __ldcs(tb + 3 * i), b1 = __ldcs(tb + 3 * i + 1), b2 = __ldcs(tb + 3 * i + 2);
  const double ox = a0.x, oy = a0.y;  // local origin: A's first vertex
  P2 A0{0.0, 0.0}, A1{a1.x - ox, a1.y - oy}, A2{a2.x - ox, a2.y - oy};
  P2 B0{b0.x - ox, b0.y - oy}, B1{b1.x - ox, b1.y - oy}, B2{b2.x - ox, b2.y - oy};
  const double sa = orient(A0, A1, A2), sb = orient(B0, B1, B2);
  double s = 0.0;
  if (sa != 0.0 && sb != 0.0) {
    if (sa < 0.0) { const P2 t = A1; A1 = A2; A2 = t; }
    if (sb < 0.0) { const P2 t = B1; B1 = B2; B2 = t; }
    s += clipped_term(A0, A1, B0, B1, B2);
    s += clipped_term(A1, A2, B0, B1, B2);
    s += clipped_term(A2, A0, B0, B1, B2);
    s += clipped_term(B0, B1, A0, A1, A2);
    s += clipped_term(B1, B2, A0, A1, A2);
    s += clipped_term(B2, B0, A0, A1, A2);
  }
  __stcs(area + i, (float)(0.5 * s));
}

}  // namespace

extern "C" void triangle_overlap_area(int n, const float* ta, const float* tb, float* area, cudaStream_t stream) {
  if (n <= 0) return;
  overlap_green_kernel<<<(unsigned int)(((long long)n + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      n, reinterpret_cast<const float2*>(ta), reinterpret_cast<const float2*>(tb), area);
}

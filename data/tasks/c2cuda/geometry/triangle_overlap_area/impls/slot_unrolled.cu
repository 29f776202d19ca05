// strategy: slot_unrolled — Sutherland-Hodgman without compaction: every input vertex owns two fixed output slots (crossing point, kept vertex) with validity flags, so the three clip stages (3 -> 6 -> 12 -> 24 slots) are compile-time unrolled and the whole polygon lives in registers; float2 loads, grid-stride loop
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;

__device__ __forceinline__ float orient(float ax, float ay, float bx, float by, float cx, float cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

// One clip stage against the line c0 -> c1 (inside: orient >= 0), N input slots -> 2N output slots.
template <int N>
__device__ __forceinline__ void clip_stage(const float (&x)[N], const float (&y)[N], const bool (&v)[N], float c0x,
                                           float c0y, float c1x, float c1y, float (&X)[2 * N], float (&Y)[2 * N],
                                           bool (&V)[2 * N]) {
  float lx = 0.0f, ly = 0.0f;  // last valid vertex = predecessor of the first valid one
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (v[i]) { lx = x[i]; ly = y[i]; }
  float fl = orient(c0x, c0y, c1x, c1y, lx, ly);
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const float fi = orient(c0x, c0y, c1x, c1y, x[i], y[i]);
    const bool cross = v[i] && ((fi >= 0.0f) != (fl >= 0.0f));
    const float t = cross ? fl / (fl - fi) : 0.0f;
    X[2 * i] = fmaf(t, x[i] - lx, lx);
    Y[2 * i] = fmaf(t, y[i] - ly, ly);
    V[2 * i] = cross;
    X[2 * i + 1] = x[i];
    Y[2 * i + 1] = y[i];
    V[2 * i + 1] = v[i] && fi >= 0.0f;
    if (v[i]) { lx = x[i]; ly = y[i]; fl = fi; }
  }
}

__global__ void __launch_bounds__(kThreads)
overlap_slots_kernel(int n, const float2* __restrict__ ta, const float2* __restrict__ tb, float* __restrict__ area) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float2 a0 = __ldg(ta + 3 * i), a1 = __ldg(ta + 3 * i + 1), a2 = __ldg(ta + 3 * i + 2);
    float2 b0 = __ldg(tb + 3 * i), b1 = __ldg(tb + 3 * i + 1), b2 = __ldg(tb + 3 * i + 2);
    const float sa = orient(a0.x, a0.y, a1.x, a1.y, a2.x, a2.y);
    const float sb = orient(b0.x, b0.y, b1.x, b1.y, b2.x, b2.y);
    if (sa == 0.0f || sb == 0.0f) {
      area[i] = 0.0f;
      continue;
    }
    if (sa < 0.0f) { const float2 t = a1; a1 = a2; a2 = t; }
    if (sb < 0.0f) { const float2 t = b1; b1 = b2; b2 = t; }
    float x0[3] = {a0.x, a1.x, a2.x}, y0[3] = {a0.y, a1.y, a2.y};
    bool v0[3] = {true, true, true};
    float x1[6], y1[6], x2[12], y2[12], x3[24], y3[24];
    bool v1[6], v2[12], v3[24];
    clip_stage<3>(x0, y0, v0, b0.x, b0.y, b1.x, b1.y, x1, y1, v1);
    clip_stage<6>(x1, y1, v1, b1.x, b1.y, b2.x, b2.y, x2, y2, v2);
    clip_stage<12>(x2, y2, v2, b2.x, b2.y, b0.x, b0.y, x3, y3, v3);
    float px = 0.0f, py = 0.0f;
#pragma unroll
    for (int k = 0; k < 24; ++k)
      if (v3[k]) { px = x3[k]; py = y3[k]; }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 24; ++k)
      if (v3[k]) {
        s += px * y3[k] - x3[k] * py;
        px = x3[k];
        py = y3[k];
      }
    area[i] = 0.5f * s;
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void triangle_overlap_area(int n, const float* ta, const float* tb, float* area, cudaStream_t stream) {
  if (n <= 0) return;
  long long blocks = ((long long)n + kThreads - 1) / kThreads;
  const long long cap = 32LL * sm_count();
  if (blocks > cap) blocks = cap;
  overlap_slots_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, reinterpret_cast<const float2*>(ta),
                                                                      reinterpret_cast<const float2*>(tb), area);
}

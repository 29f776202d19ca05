// strategy: register_marching — each thread marches down a 64-row strip of one column with a rolling 3x3 register window; west/east values come from warp shuffles
#include <cuda_runtime.h>

#define WARPS 4
#define STRIP 64

__global__ void __launch_bounds__(32 * WARPS) stencil2d_9pt_march_kernel(int n, int m, const float* __restrict__ wts,
                                                                         const float* __restrict__ in,
                                                                         float* __restrict__ out) {
  float w[9];
#pragma unroll
  for (int k = 0; k < 9; ++k) w[k] = __ldg(wts + k);
  const int lane = threadIdx.x;
  const int j = (blockIdx.x * WARPS + threadIdx.y) * 32 + lane;
  const int i0 = blockIdx.y * STRIP;
  const int i1 = min(i0 + STRIP, n);
  const int jc = min(j, m - 1);
  const int jl = max(jc - 1, 0), jr = min(jc + 1, m - 1);
  const bool need_east_load = (lane == 31) || (j + 1 >= m);

  // load the (west, centre, east) triple of row r for this thread's column
  auto load_row = [&](int r, float& a, float& b, float& c) {
    const float* row = in + (long long)min(max(r, 0), n - 1) * m;
    b = __ldg(row + jc);
    a = __shfl_up_sync(0xffffffffu, b, 1);
    c = __shfl_down_sync(0xffffffffu, b, 1);
    if (lane == 0) a = __ldg(row + jl);
    if (need_east_load) c = __ldg(row + jr);
  };
  float a0, b0, c0, a1, b1, c1, a2, b2, c2;
  load_row(i0 - 1, a0, b0, c0);
  load_row(i0, a1, b1, c1);
  for (int i = i0; i < i1; ++i) {  // warp-uniform trip count
    load_row(i + 1, a2, b2, c2);
    float s = 0.f;
    s = fmaf(w[0], a0, s); s = fmaf(w[1], b0, s); s = fmaf(w[2], c0, s);
    s = fmaf(w[3], a1, s); s = fmaf(w[4], b1, s); s = fmaf(w[5], c1, s);
    s = fmaf(w[6], a2, s); s = fmaf(w[7], b2, s); s = fmaf(w[8], c2, s);
    if (j < m) out[(long long)i * m + j] = s;
    a0 = a1; b0 = b1; c0 = c1;
    a1 = a2; b1 = b2; c1 = c2;
  }
}

extern "C" void stencil2d_9pt(int n, int m, const float* wts, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(32, WARPS);
  dim3 grid((m + 32 * WARPS - 1) / (32 * WARPS), (n + STRIP - 1) / STRIP);
  stencil2d_9pt_march_kernel<<<grid, block, 0, stream>>>(n, m, wts, in, out);
}

// strategy: register_marching — separable Sobel: each thread walks down a 64-row strip of one column, per row it forms the smoothing (a+2b+c) and difference (c-a) of its horizontal neighbours (via warp shuffles) and keeps the last 3 rows of both in registers
#include <cuda_runtime.h>

#define WARPS 4
#define STRIP 64

__global__ void __launch_bounds__(32 * WARPS) sobel_march_kernel(int h, int w, const float* __restrict__ in,
                                                                 float* __restrict__ out) {
  const int lane = threadIdx.x;
  const int x = (blockIdx.x * WARPS + threadIdx.y) * 32 + lane;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min(y0 + STRIP, h);
  const int xc = min(x, w - 1);
  const int xl = max(xc - 1, 0), xr = min(xc + 1, w - 1);
  const bool east_load = (lane == 31) || (x + 1 >= w);
  // per row: sm = a + 2b + c (horizontal smoothing), df = c - a (horizontal difference)
  auto row_terms = [&](int r, float& sm, float& df) {
    const float* row = in + (long long)min(max(r, 0), h - 1) * w;
    float b = __ldg(row + xc);
    float a = __shfl_up_sync(0xffffffffu, b, 1);
    float c = __shfl_down_sync(0xffffffffu, b, 1);
    if (lane == 0) a = __ldg(row + xl);
    if (east_load) c = __ldg(row + xr);
    sm = (a + c) + 2.f * b;
    df = c - a;
  };
  float sm0, df0, sm1, df1, sm2, df2;
  row_terms(y0 - 1, sm0, df0);
  row_terms(y0, sm1, df1);
  for (int y = y0; y < y1; ++y) {  // warp-uniform trip count
    row_terms(y + 1, sm2, df2);
    float gx = (df0 + df2) + 2.f * df1;  // vertical smoothing of the horizontal difference
    float gy = sm2 - sm0;                // vertical difference of the horizontal smoothing
    if (x < w) out[(long long)y * w + x] = sqrtf(gx * gx + gy * gy);
    sm0 = sm1; df0 = df1;
    sm1 = sm2; df1 = df2;
  }
}

extern "C" void sobel_mag(int h, int w, const float* in, float* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(32, WARPS);
  dim3 grid((w + 32 * WARPS - 1) / (32 * WARPS), (h + STRIP - 1) / STRIP);
  sobel_march_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

// strategy: shared_tiled — 32x16 output tiles, (16+2)x(32+2) clamped input tile staged in shared memory, weights in registers, each thread computes 2 rows
#include <cuda_runtime.h>

#define BX 32
#define BY 16
#define TY 8  // threads in y; each computes BY/TY rows

__global__ void __launch_bounds__(BX * TY) stencil2d_9pt_shared_kernel(int n, int m, const float* __restrict__ wts,
                                                                       const float* __restrict__ in,
                                                                       float* __restrict__ out) {
  __shared__ float tile[BY + 2][BX + 2];
  float w[9];
#pragma unroll
  for (int k = 0; k < 9; ++k) w[k] = __ldg(wts + k);
  const int j0 = blockIdx.x * BX, i0 = blockIdx.y * BY;
  const int tid = threadIdx.y * BX + threadIdx.x;
  for (int e = tid; e < (BY + 2) * (BX + 2); e += BX * TY) {
    int r = e / (BX + 2), c = e % (BX + 2);
    int gi = min(max(i0 - 1 + r, 0), n - 1);
    int gj = min(max(j0 - 1 + c, 0), m - 1);
    tile[r][c] = __ldg(in + (long long)gi * m + gj);
  }
  __syncthreads();
  const int j = j0 + threadIdx.x;
  if (j >= m) return;
#pragma unroll
  for (int p = 0; p < BY / TY; ++p) {
    const int ly = threadIdx.y + p * TY;
    const int i = i0 + ly;
    if (i < n) {
      const int r = ly + 1, c = threadIdx.x + 1;
      float s = 0.f;
#pragma unroll
      for (int di = 0; di < 3; ++di)
#pragma unroll
        for (int dj = 0; dj < 3; ++dj) s = fmaf(w[di * 3 + dj], tile[r - 1 + di][c - 1 + dj], s);
      out[(long long)i * m + j] = s;
    }
  }
}

extern "C" void stencil2d_9pt(int n, int m, const float* wts, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(BX, TY);
  dim3 grid((m + BX - 1) / BX, (n + BY - 1) / BY);
  stencil2d_9pt_shared_kernel<<<grid, block, 0, stream>>>(n, m, wts, in, out);
}

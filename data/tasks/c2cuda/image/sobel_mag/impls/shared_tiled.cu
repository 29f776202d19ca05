// strategy: shared_tiled — 32x32 output tile plus 1-pixel halo staged in shared memory (coalesced, clamped), each thread computes 4 rows
#include <cuda_runtime.h>

#define T 32
#define TY 8

__global__ void __launch_bounds__(T * TY) sobel_shared_kernel(int h, int w, const float* __restrict__ in,
                                                              float* __restrict__ out) {
  __shared__ float s[T + 2][T + 3];  // +1 padding column
  const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  const int tid = threadIdx.y * T + threadIdx.x;
  for (int e = tid; e < (T + 2) * (T + 2); e += T * TY) {
    int r = e / (T + 2), c = e % (T + 2);
    int gy = min(max(y0 - 1 + r, 0), h - 1);
    int gx = min(max(x0 - 1 + c, 0), w - 1);
    s[r][c] = __ldg(in + (long long)gy * w + gx);
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (x >= w) return;
  const int c = threadIdx.x + 1;
#pragma unroll
  for (int p = 0; p < T / TY; ++p) {
    int ly = threadIdx.y + p * TY;
    int y = y0 + ly;
    if (y < h) {
      int r = ly + 1;
      float gx = (s[r - 1][c + 1] + 2.f * s[r][c + 1] + s[r + 1][c + 1]) - (s[r - 1][c - 1] + 2.f * s[r][c - 1] + s[r + 1][c - 1]);
      float gy = (s[r + 1][c - 1] + 2.f * s[r + 1][c] + s[r + 1][c + 1]) - (s[r - 1][c - 1] + 2.f * s[r - 1][c] + s[r - 1][c + 1]);
      out[(long long)y * w + x] = sqrtf(gx * gx + gy * gy);
    }
  }
}

extern "C" void sobel_mag(int h, int w, const float* in, float* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(T, TY);
  dim3 grid((w + T - 1) / T, (h + T - 1) / T);
  sobel_shared_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

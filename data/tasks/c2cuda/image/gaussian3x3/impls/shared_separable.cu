// strategy: shared_separable — a 32x32 output tile plus 1-pixel halo is staged in shared memory, a horizontal [1 2 1] pass writes a second shared buffer, then the vertical pass produces 4 rows per thread
#include <cuda_runtime.h>

#define T 32
#define TY 8

__global__ void __launch_bounds__(T * TY) gaussian3x3_shared_kernel(int h, int w, const float* __restrict__ in,
                                                                    float* __restrict__ out) {
  __shared__ float src[T + 2][T + 2];
  __shared__ float hs[T + 2][T];  // horizontal sums for rows -1..T
  const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  const int tid = threadIdx.y * T + threadIdx.x;
  for (int e = tid; e < (T + 2) * (T + 2); e += T * TY) {
    int r = e / (T + 2), c = e % (T + 2);
    int gy = min(max(y0 - 1 + r, 0), h - 1);
    int gx = min(max(x0 - 1 + c, 0), w - 1);
    src[r][c] = __ldg(in + (long long)gy * w + gx);
  }
  __syncthreads();
  for (int r = threadIdx.y; r < T + 2; r += TY) {
    int c = threadIdx.x + 1;
    hs[r][threadIdx.x] = (src[r][c - 1] + src[r][c + 1]) + 2.f * src[r][c];
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (x >= w) return;
#pragma unroll
  for (int p = 0; p < T / TY; ++p) {
    int ly = threadIdx.y + p * TY;
    int y = y0 + ly;
    if (y < h) {
      float v = (hs[ly][threadIdx.x] + hs[ly + 2][threadIdx.x]) + 2.f * hs[ly + 1][threadIdx.x];
      out[(long long)y * w + x] = v * 0.0625f;
    }
  }
}

extern "C" void gaussian3x3(int h, int w, const float* in, float* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(T, TY);
  dim3 grid((w + T - 1) / T, (h + T - 1) / T);
  gaussian3x3_shared_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

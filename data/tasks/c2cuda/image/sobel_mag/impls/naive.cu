// strategy: naive (weak) — one thread per pixel with threadIdx.x mapped to rows (uncoalesced), every tap re-read from global memory
#include <cuda_runtime.h>

__global__ void sobel_naive_kernel(int h, int w, const float* in, float* out) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h || x >= w) return;
  const int kx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
  const int ky[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};
  float gx = 0.f, gy = 0.f;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      float p = in[(long long)yy * w + xx];
      gx += (float)kx[dy + 1][dx + 1] * p;
      gy += (float)ky[dy + 1][dx + 1] * p;
    }
  }
  out[(long long)y * w + x] = sqrtf(gx * gx + gy * gy);
}

extern "C" void sobel_mag(int h, int w, const float* in, float* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(32, 8);
  dim3 grid((h + 31) / 32, (w + 7) / 8);
  sobel_naive_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

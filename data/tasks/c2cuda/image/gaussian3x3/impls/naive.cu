// strategy: naive (weak) — one thread per pixel with threadIdx.x mapped to image rows (uncoalesced), 9 global loads per pixel, no reuse
#include <cuda_runtime.h>

__global__ void gaussian3x3_naive_kernel(int h, int w, const float* in, float* out) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h || x >= w) return;
  const float k[3] = {1.f, 2.f, 1.f};
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      s += k[dy + 1] * k[dx + 1] * in[(long long)yy * w + xx];
    }
  }
  out[(long long)y * w + x] = s * 0.0625f;
}

extern "C" void gaussian3x3(int h, int w, const float* in, float* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(32, 8);
  dim3 grid((h + 31) / 32, (w + 7) / 8);
  gaussian3x3_naive_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

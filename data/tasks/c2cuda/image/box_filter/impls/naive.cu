// strategy: naive (weak) — one thread per pixel with threadIdx.x mapped to rows (uncoalesced), direct (2r+1)^2 window sum from global memory
#include <cuda_runtime.h>

__global__ void box_naive_kernel(int h, int w, int r, const double* in, double* out) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h || x >= w) return;
  double s = 0.0;
  for (int dy = -r; dy <= r; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -r; dx <= r; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      s += in[(long long)yy * w + xx];
    }
  }
  out[(long long)y * w + x] = s * (1.0 / ((double)(2 * r + 1) * (double)(2 * r + 1)));
}

extern "C" void box_filter(int h, int w, int r, const double* in, double* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(32, 8);
  dim3 grid((h + 31) / 32, (w + 7) / 8);
  box_naive_kernel<<<grid, block, 0, stream>>>(h, w, r, in, out);
}

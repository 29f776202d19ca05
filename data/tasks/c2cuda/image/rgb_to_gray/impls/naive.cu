// strategy: naive (weak) — one thread per pixel but threads are laid out column-major (consecutive threads take pixels a whole row apart), so byte loads and float stores are uncoalesced
#include <cuda_runtime.h>

__global__ void rgb_to_gray_naive_kernel(int h, int w, const unsigned char* rgb, float* gray) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)h * w) return;
  long long y = t % h, x = t / h;  // column-major walk over a row-major image
  long long p = y * w + x;
  float r = (float)rgb[3 * p], g = (float)rgb[3 * p + 1], b = (float)rgb[3 * p + 2];
  gray[p] = 0.299f * r + 0.587f * g + 0.114f * b;
}

extern "C" void rgb_to_gray(int h, int w, const unsigned char* rgb, float* gray, cudaStream_t stream) {
  long long npix = (long long)h * w;
  if (npix <= 0) return;
  const int block = 256;
  rgb_to_gray_naive_kernel<<<(unsigned)((npix + block - 1) / block), block, 0, stream>>>(h, w, rgb, gray);
}

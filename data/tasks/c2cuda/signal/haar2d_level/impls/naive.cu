// strategy: naive (weak) — one thread per output element re-reads its four source pixels (every input read four times), threadIdx.x mapped to output rows so warps access memory with a large stride
#include <cuda_runtime.h>

__global__ void haar2d_naive_kernel(int h2, int w2, const float* in, float* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;  // output row
  const int c = blockIdx.y * blockDim.y + threadIdx.y;  // output column
  if (r >= 2 * h2 || c >= 2 * w2) return;
  const long long w = 2LL * w2;
  const int i = r % h2, j = c % w2;
  const bool low_row = r < h2, low_col = c < w2;
  const float a = in[(2LL * i) * w + 2 * j], b = in[(2LL * i) * w + 2 * j + 1];
  const float cc = in[(2LL * i + 1) * w + 2 * j], d = in[(2LL * i + 1) * w + 2 * j + 1];
  const float top = low_col ? a + b : a - b;
  const float bot = low_col ? cc + d : cc - d;
  out[(long long)r * w + c] = 0.5f * (low_row ? top + bot : top - bot);
}

extern "C" void haar2d_level(int h2, int w2, const float* in, float* out, cudaStream_t stream) {
  if (h2 <= 0 || w2 <= 0) return;
  dim3 block(32, 8);
  dim3 grid((2 * h2 + 31) / 32, (2 * w2 + 7) / 8);
  haar2d_naive_kernel<<<grid, block, 0, stream>>>(h2, w2, in, out);
}

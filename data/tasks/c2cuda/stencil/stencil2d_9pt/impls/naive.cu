// strategy: naive (weak) — one thread per cell with threadIdx.x mapped to rows (uncoalesced), all 9 inputs and 9 weights re-read from global memory
#include <cuda_runtime.h>

__global__ void stencil2d_9pt_naive_kernel(int n, int m, const float* wts, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  float s = 0.f;
  for (int di = -1; di <= 1; ++di) {
    int ii = min(max(i + di, 0), n - 1);
    for (int dj = -1; dj <= 1; ++dj) {
      int jj = min(max(j + dj, 0), m - 1);
      s += wts[(di + 1) * 3 + (dj + 1)] * in[(long long)ii * m + jj];
    }
  }
  out[(long long)i * m + j] = s;
}

extern "C" void stencil2d_9pt(int n, int m, const float* wts, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (m + 7) / 8);
  stencil2d_9pt_naive_kernel<<<grid, block, 0, stream>>>(n, m, wts, in, out);
}

// strategy: naive (weak) — one thread per cell but threadIdx.x walks down a column, so neighbouring threads touch addresses m floats apart (uncoalesced)
#include <cuda_runtime.h>

__global__ void jacobi2d_naive_kernel(int n, int m, float w, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // row (fast thread index -> strided access)
  int j = blockIdx.y * blockDim.y + threadIdx.y;  // column
  if (i >= n || j >= m) return;
  long long k = (long long)i * m + j;
  if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
    out[k] = in[k];
  } else {
    out[k] = w * (((in[k - m] + in[k + m]) + in[k - 1]) + in[k + 1]);
  }
}

extern "C" void jacobi2d_5pt(int n, int m, float w, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (m + 7) / 8);
  jacobi2d_naive_kernel<<<grid, block, 0, stream>>>(n, m, w, in, out);
}

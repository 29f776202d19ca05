// strategy: naive (weak) — one thread per point, global atomicAdd on its 2-D bin
#include <cuda_runtime.h>

__global__ void hist2d_naive_kernel(int n, int nx, int ny, const double* x, const double* y,
                                    unsigned int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], c = y[i];
  if (!(a >= 0.0 && a < 1.0 && c >= 0.0 && c < 1.0)) return;
  int ix = (int)(a * (double)nx);
  int iy = (int)(c * (double)ny);
  if (ix > nx - 1) ix = nx - 1;
  if (iy > ny - 1) iy = ny - 1;
  atomicAdd(&counts[iy * nx + ix], 1u);
}

extern "C" void hist2d_f64(int n, int nx, int ny, const double* x, const double* y,
                           unsigned int* counts, cudaStream_t stream) {
  const long long nb = (long long)nx * ny;
  if (nb <= 0) return;
  cudaMemsetAsync(counts, 0, (size_t)nb * sizeof(unsigned int), stream);
  if (n <= 0) return;
  const int threads = 256;
  hist2d_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, nx, ny, x, y, counts);
}

// strategy: naive (weak) — one thread per row scanning it sequentially; neighbouring threads are a whole row apart, so every load and store is uncoalesced
#include <cuda_runtime.h>

__global__ void row_thread(int rows, int cols, const double* x, double* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const double* xr = x + (long long)r * cols;
  double* orow = out + (long long)r * cols;
  double acc = 0.0;
  for (int c = 0; c < cols; ++c) {
    acc += xr[c];
    orow[c] = acc;
  }
}

extern "C" void row_scan_f64(int rows, int cols, const double* x, double* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 128;
  row_thread<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, x, out);
}

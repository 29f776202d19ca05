// strategy: naive (weak) — CSR-scalar: one thread per row walks its nonzeros alone (uncoalesced across the warp, load-imbalanced)
#include <cuda_runtime.h>

__global__ void spmv_f64_naive_kernel(int rows, const int* rowptr, const int* colidx, const double* vals,
                                      const double* x, double* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double s = 0.0;
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) s += vals[k] * x[colidx[k]];
  y[r] = s;
}

extern "C" void spmv_csr_f64(int rows, int cols, int nnz, const int* rowptr, const int* colidx,
                             const double* vals, const double* x, double* y, cudaStream_t stream) {
  (void)cols;
  (void)nnz;
  if (rows <= 0) return;
  const int threads = 256;
  spmv_f64_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, rowptr, colidx, vals, x, y);
}

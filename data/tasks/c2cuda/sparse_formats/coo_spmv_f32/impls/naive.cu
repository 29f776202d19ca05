// strategy: naive (weak) — y zeroed, then one thread per nonzero does a float atomicAdd of vals[k]*x[colidx[k]] into y[rowidx[k]] with plain scalar loads
#include <cuda_runtime.h>

__global__ void coo_naive_zero(int rows, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) y[r] = 0.0f;
}

__global__ void coo_naive_kernel(int nnz, const int* rowidx, const int* colidx, const float* vals, const float* x,
                                 float* y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  atomicAdd(y + rowidx[k], vals[k] * x[colidx[k]]);
}

extern "C" void coo_spmv_f32(int rows, int cols, int nnz, const int* rowidx, const int* colidx,
                             const float* vals, const float* x, float* y, cudaStream_t stream) {
  (void)cols;
  if (rows <= 0) return;
  const int threads = 256;
  coo_naive_zero<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, y);
  if (nnz <= 0) return;
  coo_naive_kernel<<<(nnz + threads - 1) / threads, threads, 0, stream>>>(nnz, rowidx, colidx, vals, x, y);
}

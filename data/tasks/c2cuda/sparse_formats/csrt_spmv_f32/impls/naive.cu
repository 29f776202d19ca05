// strategy: naive (weak) — one thread per row walks its nonzeros alone and scatters each product into y with a float atomicAdd (uncoalesced across the warp, load-imbalanced)
#include <cuda_runtime.h>

__global__ void csrt_naive_zero(int cols, float* y) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) y[c] = 0.0f;
}

__global__ void csrt_naive_kernel(int rows, const int* rowptr, const int* colidx, const float* vals,
                                  const float* x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float xr = x[r];
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) atomicAdd(y + colidx[k], vals[k] * xr);
}

extern "C" void csrt_spmv_f32(int rows, int cols, int nnz, const int* rowptr, const int* colidx,
                              const float* vals, const float* x, float* y, cudaStream_t stream) {
  (void)nnz;
  if (cols <= 0) return;
  const int threads = 256;
  csrt_naive_zero<<<(cols + threads - 1) / threads, threads, 0, stream>>>(cols, y);
  if (rows <= 0) return;
  csrt_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, rowptr, colidx, vals, x, y);
}

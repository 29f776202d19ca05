// strategy: naive (weak) — one thread per output element with the row index varying fastest across threads, so neighbouring threads gather different B rows and write C with stride n (uncoalesced), each thread re-reading its row's nonzeros
#include <cuda_runtime.h>

__global__ void spmm_naive_kernel(int rows, int n, const int* rowptr, const int* colidx, const float* vals,
                                  const float* B, float* C) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)rows * n) return;
  const int r = (int)(t % rows), j = (int)(t / rows);
  float s = 0.0f;
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) s += vals[k] * B[(size_t)colidx[k] * n + j];
  C[(size_t)r * n + j] = s;
}

extern "C" void csr_spmm_f32(int rows, int cols, int n, int nnz, const int* rowptr, const int* colidx,
                             const float* vals, const float* B, float* C, cudaStream_t stream) {
  (void)cols;
  (void)nnz;
  if (rows <= 0 || n <= 0) return;
  const int threads = 256;
  const long long total = (long long)rows * n;
  spmm_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(rows, n, rowptr, colidx,
                                                                                           vals, B, C);
}

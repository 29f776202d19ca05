// strategy: naive (weak) — one thread per row computes every dot product of its nonzeros serially over K: neighbouring threads read different A and B rows (uncoalesced), long rows serialise, no reuse of A
#include <cuda_runtime.h>

__global__ void sddmm_naive_kernel(int rows, int K, const int* rowptr, const int* colidx, const float* vals,
                                   const float* A, const float* B, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* arow = A + (size_t)r * K;
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) {
    const float* brow = B + (size_t)colidx[k] * K;
    float s = 0.0f;
    for (int t = 0; t < K; ++t) s += arow[t] * brow[t];
    out[k] = vals[k] * s;
  }
}

extern "C" void sddmm_csr_f32(int rows, int cols, int K, int nnz, const int* rowptr, const int* colidx,
                              const float* vals, const float* A, const float* B, float* out, cudaStream_t stream) {
  (void)cols;
  (void)nnz;
  if (rows <= 0) return;
  const int threads = 128;
  sddmm_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, K, rowptr, colidx, vals, A, B, out);
}

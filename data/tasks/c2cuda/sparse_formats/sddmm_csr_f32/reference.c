/* SDDMM on a CSR pattern: out[k] = vals[k] * <A[r, :], B[colidx[k], :]> (float data, double accumulation). */
#include <stddef.h>

void sddmm_csr_f32(int rows, int cols, int K, int nnz, const int* rowptr, const int* colidx, const float* vals,
                   const float* A, const float* B, float* out) {
  (void)cols;
  (void)nnz;
  for (int r = 0; r < rows; ++r) {
    const float* arow = A + (size_t)r * (size_t)K;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) {
      const float* brow = B + (size_t)colidx[k] * (size_t)K;
      double s = 0.0;
      for (int t = 0; t < K; ++t) s += (double)arow[t] * (double)brow[t];
      out[k] = (float)((double)vals[k] * s);
    }
  }
}

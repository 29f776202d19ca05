/* BSR (4x4 blocks, row-major inside a block) sparse matrix-vector product, double accumulation. */
#include <stddef.h>

void bsr4_spmv_f32(int mb, int nb, int nnzb, const int* browptr, const int* bcolidx, const float* bvals,
                   const float* x, float* y) {
  (void)nb;
  (void)nnzb;
  for (int br = 0; br < mb; ++br) {
    double s[4] = {0.0, 0.0, 0.0, 0.0};
    for (int k = browptr[br]; k < browptr[br + 1]; ++k) {
      const float* blk = bvals + (size_t)16 * (size_t)k;
      const float* xs = x + (size_t)4 * (size_t)bcolidx[k];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s[i] += (double)blk[4 * i + j] * (double)xs[j];
    }
    for (int i = 0; i < 4; ++i) y[(size_t)4 * (size_t)br + (size_t)i] = (float)s[i];
  }
}

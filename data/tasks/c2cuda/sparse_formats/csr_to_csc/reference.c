/* CSR -> CSC conversion by a stable counting sort on the column index. */
#include <stdlib.h>

void csr_to_csc(int rows, int cols, int nnz, const int* rowptr, const int* colidx, const float* vals, int* colptr,
                int* rowidx, float* cvals) {
  (void)nnz;
  for (int c = 0; c <= cols; ++c) colptr[c] = 0;
  for (int r = 0; r < rows; ++r)
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) colptr[colidx[k] + 1] += 1;
  for (int c = 0; c < cols; ++c) colptr[c + 1] += colptr[c];
  int* cursor = (int*)malloc(sizeof(int) * (cols > 0 ? (size_t)cols : 1));
  if (!cursor) return;
  for (int c = 0; c < cols; ++c) cursor[c] = colptr[c];
  for (int r = 0; r < rows; ++r)
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) {
      const int p = cursor[colidx[k]]++;
      rowidx[p] = r;
      cvals[p] = vals[k];
    }
  free(cursor);
}

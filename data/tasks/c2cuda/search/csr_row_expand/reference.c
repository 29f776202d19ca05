/* CSR row pointer -> row index of every nonzero. */
void csr_row_expand(int rows, int nnz, const int* rowptr, int* rowidx) {
  (void)nnz;
  for (int r = 0; r < rows; ++r)
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) rowidx[k] = r;
}

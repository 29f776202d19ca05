// strategy: naive (weak) — one thread per row writes its own run of row indices serially: long rows serialise on one thread, and neighbouring threads write addresses a whole row apart (uncoalesced, load-imbalanced)
#include <cuda_runtime.h>

__global__ void csr_expand_naive_kernel(int rows, const int* rowptr, int* rowidx) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int e = rowptr[r + 1];
  for (int k = rowptr[r]; k < e; ++k) rowidx[k] = r;
}

extern "C" void csr_row_expand(int rows, int nnz, const int* rowptr, int* rowidx, cudaStream_t stream) {
  (void)nnz;
  if (rows <= 0) return;
  csr_expand_naive_kernel<<<(rows + 127) / 128, 128, 0, stream>>>(rows, rowptr, rowidx);
}

// strategy: naive (weak) — one thread per vertex scans its whole neighbour list alone (uncoalesced colidx reads, one scattered label gather per edge, hub vertices stall their warp) and bumps the global counter with one atomic per changed vertex
#include <cuda_runtime.h>

__global__ void cc_naive_kernel(int nv, const int* rowptr, const int* colidx, const int* label, int* newlab,
                                int* changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  int own = label[v];
  int m = own;
  for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) m = min(m, label[colidx[k]]);
  newlab[v] = m;
  if (m < own) atomicAdd(changed, 1);
}

extern "C" void cc_label_prop(int nv, int ne, const int* rowptr, const int* colidx, const int* label, int* newlab,
                              int* changed, cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(changed, 0, sizeof(int), stream);
  if (nv <= 0) return;
  const int threads = 256;
  cc_naive_kernel<<<(nv + threads - 1) / threads, threads, 0, stream>>>(nv, rowptr, colidx, label, newlab, changed);
}

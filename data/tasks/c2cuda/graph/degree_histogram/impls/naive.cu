// strategy: naive (weak) — one thread per source vertex walks its edge list alone incrementing indeg with global atomics (uncoalesced), then one thread per vertex increments its bin in the global histogram directly (every thread contends on a few bins)
#include <cuda_runtime.h>

__global__ void dh_zero_naive(int n, int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0;
}

__global__ void dh_indeg_naive(int nv, const int* rowptr, const int* colidx, int* indeg) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) atomicAdd(indeg + colidx[k], 1);
}

__global__ void dh_hist_naive(int nv, int nbins, const int* rowptr, const int* indeg, int* hist) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  int deg = rowptr[v + 1] - rowptr[v] + indeg[v];
  if (deg > nbins - 1) deg = nbins - 1;
  atomicAdd(hist + deg, 1);
}

extern "C" void degree_histogram(int nv, int ne, int nbins, const int* rowptr, const int* colidx, int* indeg,
                                 int* hist, cudaStream_t stream) {
  (void)ne;
  const int threads = 256;
  if (nbins > 0) dh_zero_naive<<<(nbins + threads - 1) / threads, threads, 0, stream>>>(nbins, hist);
  if (nv <= 0) return;
  const int blocks = (nv + threads - 1) / threads;
  dh_zero_naive<<<blocks, threads, 0, stream>>>(nv, indeg);
  dh_indeg_naive<<<blocks, threads, 0, stream>>>(nv, rowptr, colidx, indeg);
  dh_hist_naive<<<blocks, threads, 0, stream>>>(nv, nbins, rowptr, indeg, hist);
}

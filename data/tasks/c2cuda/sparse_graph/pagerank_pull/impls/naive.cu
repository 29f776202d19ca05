// strategy: naive (weak) — one thread per destination vertex: walks its in-edges alone (uncoalesced), two dependent gathers (rank, outdeg) and a division per edge
#include <cuda_runtime.h>

__global__ void pagerank_naive_kernel(int nv, float damping, const int* rowptr, const int* colidx,
                                      const int* outdeg, const float* rank, float* new_rank) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  float s = 0.0f;
  for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
    int u = colidx[k];
    int deg = outdeg[u];
    if (deg > 0) s += rank[u] / (float)deg;
  }
  new_rank[v] = (1.0f - damping) / (float)nv + damping * s;
}

extern "C" void pagerank_pull(int nv, int ne, float damping, const int* rowptr, const int* colidx,
                              const int* outdeg, const float* rank, float* new_rank, cudaStream_t stream) {
  (void)ne;
  if (nv <= 0) return;
  const int threads = 256;
  pagerank_naive_kernel<<<(nv + threads - 1) / threads, threads, 0, stream>>>(nv, damping, rowptr, colidx, outdeg,
                                                                            rank, new_rank);
}

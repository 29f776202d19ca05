// strategy: naive (weak) — one thread per vertex: frontier threads walk their whole adjacency list alone (divergent, uncoalesced), claim each neighbour with atomicCAS and bump the global counter once per discovery
#include <cuda_runtime.h>

__global__ void bfs_naive_kernel(int nv, int level, const int* rowptr, const int* colidx, int* levels,
                                 int* discovered) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  if (levels[v] != level) return;
  for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
    int u = colidx[k];
    if (atomicCAS(&levels[u], -1, level + 1) == -1) atomicAdd(discovered, 1);
  }
}

extern "C" void bfs_expand(int nv, int ne, int level, const int* rowptr, const int* colidx, int* levels,
                           int* discovered, cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(discovered, 0, sizeof(int), stream);
  if (nv <= 0) return;
  const int threads = 256;
  bfs_naive_kernel<<<(nv + threads - 1) / threads, threads, 0, stream>>>(nv, level, rowptr, colidx, levels,
                                                                        discovered);
}

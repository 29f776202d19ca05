// strategy: naive (weak) — one thread per vertex: an unvisited thread walks its parent list alone (uncoalesced colidx reads, 4-byte levels lookups scattered over memory) and bumps the global counter with one atomic per discovery
#include <cuda_runtime.h>

__global__ void bu_naive_kernel(int nv, int level, const int* rowptr, const int* colidx, int* levels, int* parent,
                                int* discovered) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  int p = -1;
  if (levels[v] == -1) {
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      int u = colidx[k];
      // another thread may concurrently turn levels[u] from -1 into level + 1; neither equals level
      if (((volatile int*)levels)[u] == level) { p = u; break; }
    }
    if (p >= 0) {
      levels[v] = level + 1;
      atomicAdd(discovered, 1);
    }
  }
  parent[v] = p;
}

extern "C" void bfs_bottom_up(int nv, int ne, int level, const int* rowptr, const int* colidx, int* levels,
                              int* parent, int* discovered, cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(discovered, 0, sizeof(int), stream);
  if (nv <= 0) return;
  const int threads = 256;
  bu_naive_kernel<<<(nv + threads - 1) / threads, threads, 0, stream>>>(nv, level, rowptr, colidx, levels, parent,
                                                                       discovered);
}

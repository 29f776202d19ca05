// strategy: naive (weak) — copy kernel, then one thread per vertex: a peeled thread walks its whole edge list alone (uncoalesced), decrements each neighbour with a global atomic and bumps the global removed counter
#include <cuda_runtime.h>

__global__ void kc_copy_naive(int nv, const int* deg, int* newdeg) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nv) newdeg[v] = deg[v];
}

__global__ void kc_peel_naive(int nv, int k, const int* rowptr, const int* colidx, const int* deg,
                              const unsigned char* alive, int* newdeg, unsigned char* newalive, int* removed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  bool a = alive[v] != 0;
  bool peel = a && deg[v] < k;
  newalive[v] = (unsigned char)(a && !peel);
  if (!peel) return;
  atomicAdd(removed, 1);
  for (int j = rowptr[v]; j < rowptr[v + 1]; ++j) atomicSub(newdeg + colidx[j], 1);
}

extern "C" void kcore_peel_step(int nv, int ne, int k, const int* rowptr, const int* colidx, const int* deg,
                                const unsigned char* alive, int* newdeg, unsigned char* newalive, int* removed,
                                cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(removed, 0, sizeof(int), stream);
  if (nv <= 0) return;
  const int threads = 256;
  const int blocks = (nv + threads - 1) / threads;
  kc_copy_naive<<<blocks, threads, 0, stream>>>(nv, deg, newdeg);
  kc_peel_naive<<<blocks, threads, 0, stream>>>(nv, k, rowptr, colidx, deg, alive, newdeg, newalive, removed);
}

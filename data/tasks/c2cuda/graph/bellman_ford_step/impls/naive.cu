// strategy: naive (weak) — copy kernel, then one thread per source vertex pushing along its whole edge list alone (uncoalesced colidx/wt reads, unconditional atomicMin per edge), then a count kernel with one global atomic per changed vertex
#include <cuda_runtime.h>

__global__ void bf_copy_naive(int nv, const int* dist, int* dnew) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nv) dnew[v] = dist[v];
}

__global__ void bf_push_naive(int nv, const int* rowptr, const int* colidx, const int* wt, const int* dist, int* dnew) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  int dv = dist[v];
  for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) atomicMin(dnew + colidx[k], dv + wt[k]);
}

__global__ void bf_count_naive(int nv, const int* dist, const int* dnew, int* changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nv && dnew[v] < dist[v]) atomicAdd(changed, 1);
}

extern "C" void bellman_ford_step(int nv, int ne, const int* rowptr, const int* colidx, const int* wt,
                                  const int* dist, int* dnew, int* changed, cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(changed, 0, sizeof(int), stream);
  if (nv <= 0) return;
  const int threads = 256;
  const int blocks = (nv + threads - 1) / threads;
  bf_copy_naive<<<blocks, threads, 0, stream>>>(nv, dist, dnew);
  bf_push_naive<<<blocks, threads, 0, stream>>>(nv, rowptr, colidx, wt, dist, dnew);
  bf_count_naive<<<blocks, threads, 0, stream>>>(nv, dist, dnew, changed);
}

// strategy: warp_per_vertex — each warp takes 32 vertices, ballots the unvisited ones, then all 32 lanes scan one vertex's parent list 32 entries at a time (coalesced colidx reads); a ballot finds the lowest lane whose parent is in the frontier, which is the first in CSR order, and the warp stops early; discoveries counted per warp, reduced per block, one global atomic per block
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
bu_warp_kernel(int nv, int level, const int* __restrict__ rowptr, const int* __restrict__ colidx, int* levels,
               int* __restrict__ parent, int* discovered) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  const int stride = gridDim.x * blockDim.x;
  const volatile int* vlev = levels;  // neighbours may be marked concurrently (to level + 1, never to level)
  int found = 0;
  for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < nv; base += stride) {  // warp-uniform
    const int v = base + lane;
    const bool unvisited = v < nv && levels[v] == -1;
    unsigned int todo = __ballot_sync(0xffffffffu, unvisited);
    int my_parent = -1;  // result for vertex base + lane
    while (todo) {
      const int src = __ffs(todo) - 1;
      todo &= todo - 1;
      const int w = base + src;
      const int b = __ldg(rowptr + w), e = __ldg(rowptr + w + 1);
      int hit_u = -1;
      for (int k0 = b; k0 < e; k0 += 32) {
        const int k = k0 + lane;
        int u = -1;
        bool hit = false;
        if (k < e) {
          u = __ldg(colidx + k);
          hit = vlev[u] == level;
        }
        const unsigned int hits = __ballot_sync(0xffffffffu, hit);
        if (hits) {
          hit_u = __shfl_sync(0xffffffffu, u, __ffs(hits) - 1);  // lowest k = first in CSR order
          break;
        }
      }
      if (lane == src) my_parent = hit_u;
    }
    if (v < nv) {
      parent[v] = my_parent;
      if (my_parent >= 0) levels[v] = level + 1;
    }
    const unsigned int marked = __ballot_sync(0xffffffffu, my_parent >= 0);
    if (lane == 0) found += __popc(marked);
  }
  if (lane == 0 && found) atomicAdd(&block_count, found);
  __syncthreads();
  if (threadIdx.x == 0 && block_count) atomicAdd(discovered, block_count);
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}
}  // namespace

extern "C" void bfs_bottom_up(int nv, int ne, int level, const int* rowptr, const int* colidx, int* levels,
                              int* parent, int* discovered, cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(discovered, 0, sizeof(int), stream);
  if (nv <= 0) return;
  long long blocks = ((long long)nv + kThreads - 1) / kThreads;
  const long long cap = 32LL * sm_count();
  if (blocks > cap) blocks = cap;
  bu_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(nv, level, rowptr, colidx, levels, parent,
                                                               discovered);
}

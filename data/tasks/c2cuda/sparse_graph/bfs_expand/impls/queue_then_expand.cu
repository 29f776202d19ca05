// strategy: queue_then_expand — pass 1 compacts the frontier into a scratch queue (warp ballot + one atomic per warp for the slot range); pass 2 expands only queued vertices, 8 lanes per vertex, so no lanes are spent on non-frontier vertices; discoveries counted per warp and per block
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kLanes = 8;  // lanes per frontier vertex in pass 2

// queue[0 .. *qlen) receives the frontier vertices, in no particular order
__global__ void __launch_bounds__(kThreads)
bfs_compact_kernel(int nv, int level, const int* __restrict__ levels, int* __restrict__ queue, int* qlen) {
  const int lane = threadIdx.x & 31;
  const int stride = gridDim.x * blockDim.x;
  for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < nv; base += stride) {
    const int v = base + lane;
    const bool in_frontier = v < nv && __ldg(levels + v) == level;
    const unsigned int mask = __ballot_sync(0xffffffffu, in_frontier);
    if (mask == 0u) continue;  // warp-uniform
    int slot0 = 0;
    if (lane == 0) slot0 = atomicAdd(qlen, __popc(mask));
    slot0 = __shfl_sync(0xffffffffu, slot0, 0);
    if (in_frontier) queue[slot0 + __popc(mask & ((1u << lane) - 1u))] = v;
  }
}

__global__ void __launch_bounds__(kThreads)
bfs_expand_queue_kernel(int level, const int* __restrict__ rowptr, const int* __restrict__ colidx,
                        const int* __restrict__ queue, const int* __restrict__ qlen, int* levels, int* discovered) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  const int n = *qlen;
  const int lane = threadIdx.x & 31;
  const int sub = threadIdx.x & (kLanes - 1);
  const int groups_total = (gridDim.x * blockDim.x) / kLanes;
  const int g0 = (blockIdx.x * blockDim.x + threadIdx.x) / kLanes;
  const int warp_first = g0 & ~(32 / kLanes - 1);
  const int next = level + 1;
  int found = 0;
  for (int gbase = warp_first; gbase < n; gbase += groups_total) {  // warp-uniform bound
    const int q = gbase + (g0 - warp_first);
    if (q < n) {
      const int v = queue[q];
      const int b = __ldg(rowptr + v), e = __ldg(rowptr + v + 1);
      for (int k = b + sub; k < e; k += kLanes) {
        const int u = __ldcs(colidx + k);
        if (*(volatile int*)(levels + u) == -1 && atomicCAS(levels + u, -1, next) == -1) ++found;
      }
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) found += __shfl_xor_sync(0xffffffffu, found, off);
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

extern "C" void bfs_expand(int nv, int ne, int level, const int* rowptr, const int* colidx, int* levels,
                           int* discovered, cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(discovered, 0, sizeof(int), stream);
  if (nv <= 0) return;
  int* scratch = nullptr;  // [0] = queue length, [1..nv] = queue
  cudaMallocAsync((void**)&scratch, ((size_t)nv + 1) * sizeof(int), stream);
  cudaMemsetAsync(scratch, 0, sizeof(int), stream);
  const int sms = sm_count();
  long long blocks = ((long long)nv + kThreads - 1) / kThreads;
  if (blocks > 16LL * sms) blocks = 16LL * sms;
  bfs_compact_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(nv, level, levels, scratch + 1, scratch);
  // pass 2 grid sized for the worst case (every vertex queued), capped to a persistent grid
  long long blocks2 = ((long long)nv * kLanes + kThreads - 1) / kThreads;
  if (blocks2 > 16LL * sms) blocks2 = 16LL * sms;
  bfs_expand_queue_kernel<<<(unsigned int)blocks2, kThreads, 0, stream>>>(level, rowptr, colidx, scratch + 1,
                                                                          scratch, levels, discovered);
  cudaFreeAsync(scratch, stream);
}

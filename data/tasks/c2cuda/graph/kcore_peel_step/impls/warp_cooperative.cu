// strategy: warp_cooperative — each warp takes 32 vertices, writes their newalive flags, ballots the peeled ones, then all 32 lanes walk one peeled vertex's edge list at a time (coalesced colidx reads, fire-and-forget atomic decrements); removed counted with popc per warp, one global atomic per block
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) kc_copy(int nv, const int* __restrict__ deg, int* __restrict__ newdeg) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nv; v += stride) newdeg[v] = __ldg(deg + v);
}

__global__ void __launch_bounds__(kThreads)
kc_peel_warp(int nv, int k, const int* __restrict__ rowptr, const int* __restrict__ colidx,
             const int* __restrict__ deg, const unsigned char* __restrict__ alive, int* newdeg,
             unsigned char* __restrict__ newalive, int* removed) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  const int stride = gridDim.x * blockDim.x;
  int count = 0;  // kept by lane 0
  for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < nv; base += stride) {  // warp-uniform
    const int v = base + lane;
    bool peel = false;
    if (v < nv) {
      const bool a = __ldg(alive + v) != 0;
      peel = a && __ldg(deg + v) < k;
      newalive[v] = (unsigned char)(a && !peel);
    }
    unsigned int todo = __ballot_sync(0xffffffffu, peel);
    if (lane == 0) count += __popc(todo);
    while (todo) {
      const int w = base + __ffs(todo) - 1;
      todo &= todo - 1;
      const int b = __ldg(rowptr + w), e = __ldg(rowptr + w + 1);
      for (int j = b + lane; j < e; j += 32) atomicSub(newdeg + __ldcs(colidx + j), 1);
    }
  }
  if (lane == 0 && count) atomicAdd(&block_count, count);
  __syncthreads();
  if (threadIdx.x == 0 && block_count) atomicAdd(removed, block_count);
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

extern "C" void kcore_peel_step(int nv, int ne, int k, const int* rowptr, const int* colidx, const int* deg,
                                const unsigned char* alive, int* newdeg, unsigned char* newalive, int* removed,
                                cudaStream_t stream) {
  (void)ne;
  cudaMemsetAsync(removed, 0, sizeof(int), stream);
  if (nv <= 0) return;
  long long blocks = ((long long)nv + kThreads - 1) / kThreads;
  const long long cap = 32LL * sm_count();
  if (blocks > cap) blocks = cap;
  kc_copy<<<(unsigned int)blocks, kThreads, 0, stream>>>(nv, deg, newdeg);
  kc_peel_warp<<<(unsigned int)blocks, kThreads, 0, stream>>>(nv, k, rowptr, colidx, deg, alive, newdeg, newalive,
                                                             removed);
}

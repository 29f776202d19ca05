// strategy: bitmap_edge_parallel — pass 1 (vertex-parallel) copies deg, writes newalive, packs the peel decisions into a bitmap with one ballot per warp and counts them with a block reduction; pass 2 is edge-parallel with exact load balance: each block owns 2048 consecutive edges, finds its source-row window by binary search in rowptr once, and each thread resolves its edge's source inside the window, tests the source's bit (the nv/8-byte bitmap stays in L2) and issues the atomic decrement only for peeled sources
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;
constexpr int kPer = 8;
constexpr int kTile = kThreads * kPer;

__global__ void __launch_bounds__(kThreads)
kc_flags(int nv, int k, const int* __restrict__ deg, const unsigned char* __restrict__ alive,
         int* __restrict__ newdeg, unsigned char* __restrict__ newalive, unsigned int* __restrict__ bits,
         int* removed) {
  __shared__ int warp_sum[kThreads / 32];
  const int lane = threadIdx.x & 31;
  const int stride = gridDim.x * blockDim.x;
  int count = 0;
  for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < nv; base += stride) {  // warp-uniform
    const int v = base + lane;
    bool peel = false;
    if (v < nv) {
      const int d = __ldg(deg + v);
      const bool a = __ldg(alive + v) != 0;
      peel = a && d < k;
      newdeg[v] = d;
      newalive[v] = (unsigned char)(a && !peel);
    }
    const unsigned int m = __ballot_sync(0xffffffffu, peel);
    if (lane == 0) {
      bits[base >> 5] = m;
      count += __popc(m);
    }
  }
  if (lane == 0) warp_sum[threadIdx.x >> 5] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += warp_sum[w];
    if (s) atomicAdd(removed, s);
  }
}

// last r in [lo, hi] with rowptr[r] <= j  (rowptr[lo] <= j guaranteed)
__device__ __forceinline__ int row_of(const int* __restrict__ rowptr, int lo, int hi, int j) {
  while (lo < hi) {
    const int mid = lo + ((hi - lo + 1) >> 1);
    if (__ldg(rowptr + mid) <= j) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
kc_edges(int nv, int ne, const int* __restrict__ rowptr, const int* __restrict__ colidx,
         const unsigned int* __restrict__ bits, int* newdeg) {
  __shared__ int win[2];
  const long long j0 = (long long)blockIdx.x * kTile;
  const int jbeg = (int)j0;
  const int jend = (int)min((long long)ne, j0 + kTile);
  if (threadIdx.x == 0) {
    win[0] = row_of(rowptr, 0, nv - 1, jbeg);
    win[1] = row_of(rowptr, win[0], nv - 1, jend - 1);
  }
  __syncthreads();
  const int rlo = win[0], rhi = win[1];
  // skip the whole tile when no source in its window is peeled (common for short windows)
  bool any = false;
  for (int w = (rlo >> 5) + threadIdx.x; w <= (rhi >> 5); w += kThreads) any |= __ldg(bits + w) != 0u;
  if (!__syncthreads_or(any)) return;
#pragma unroll
  for (int t = 0; t < kPer; ++t) {
    const int j = jbeg + t * kThreads + threadIdx.x;
    if (j >= jend) break;
    const int v = row_of(rowptr, rlo, rhi, j);
    if ((__ldg(bits + (v >> 5)) >> (v & 31)) & 1u) atomicSub(newdeg + __ldcs(colidx + j), 1);
  }
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
  cudaMemsetAsync(removed, 0, sizeof(int), stream);
  if (nv <= 0) return;
  unsigned int* bits = nullptr;
  cudaMallocAsync((void**)&bits, (size_t)((nv + 31) / 32) * sizeof(unsigned int), stream);
  long long blocks = ((long long)nv + kThreads - 1) / kThreads;
  const long long cap = 32LL * sm_count();
  if (blocks > cap) blocks = cap;
  kc_flags<<<(unsigned int)blocks, kThreads, 0, stream>>>(nv, k, deg, alive, newdeg, newalive, bits, removed);
  if (ne > 0) {
    const long long tiles = ((long long)ne + kTile - 1) / kTile;
    kc_edges<<<(unsigned int)tiles, kThreads, 0, stream>>>(nv, ne, rowptr, colidx, bits, newdeg);
  }
  cudaFreeAsync(bits, stream);
}

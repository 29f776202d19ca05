// strategy: merge_segmented — edge-balanced segmented min-reduction: each block owns 2048 consecutive edges staged through shared memory with coalesced loads, each thread reduces 8 consecutive edges sequentially and flushes a partial min per row segment with atomicMin into newlab (pre-set to label), so hub rows split across threads and blocks and every thread does equal work; a final vertex pass counts changes with a block reduction
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;
constexpr int kPer = 8;
constexpr int kTile = kThreads * kPer;

__global__ void __launch_bounds__(kThreads) cc_copy(int nv, const int* __restrict__ label, int* __restrict__ newlab) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nv; v += stride) newlab[v] = __ldg(label + v);
}

// last r in [lo, hi] with rowptr[r] <= k  (rowptr[lo] <= k guaranteed)
__device__ __forceinline__ int row_of(const int* __restrict__ rowptr, int lo, int hi, int k) {
  while (lo < hi) {
    const int mid = lo + ((hi - lo + 1) >> 1);
    if (__ldg(rowptr + mid) <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
cc_segmented(int nv, int ne, const int* __restrict__ rowptr, const int* __restrict__ colidx,
             const int* __restrict__ label, int* newlab) {
  __shared__ int lab[kTile];  // gathered neighbour labels of this tile, in edge order
  __shared__ int win[2];
  const int kbeg = blockIdx.x * kTile;  // < ne, so no int overflow
  const int kend = min(ne, kbeg + kTile);
  if (threadIdx.x == 0) {
    win[0] = row_of(rowptr, 0, nv - 1, kbeg);
    win[1] = row_of(rowptr, win[0], nv - 1, kend - 1);
  }
#pragma unroll
  for (int t = 0; t < kPer; ++t) {  // coalesced colidx reads, gathers issued 8 deep per thread
    const int k = kbeg + t * kThreads + threadIdx.x;
    if (k < kend) lab[t * kThreads + threadIdx.x] = __ldg(label + __ldcs(colidx + k));
  }
  __syncthreads();
  const int rlo = win[0], rhi = win[1];
  const int my0 = kbeg + threadIdx.x * kPer;
  if (my0 >= kend) return;
  const int my1 = min(kend, my0 + kPer);
  int r = row_of(rowptr, rlo, rhi, my0);
  int rend = __ldg(rowptr + r + 1);
  int m = 0x7fffffff;
  for (int k = my0; k < my1; ++k) {
    while (k >= rend) {  // crossed into the next non-empty row: flush the finished segment
      if (m != 0x7fffffff) atomicMin(newlab + r, m);
      m = 0x7fffffff;
      ++r;
      rend = __ldg(rowptr + r + 1);
    }
    m = min(m, lab[k - kbeg]);
  }
  if (m != 0x7fffffff) atomicMin(newlab + r, m);
}

__global__ void __launch_bounds__(kThreads)
cc_count(int nv, const int* __restrict__ label, const int* __restrict__ newlab, int* changed) {
  __shared__ int warp_sum[kThreads / 32];
  const int stride = gridDim.x * blockDim.x;
  int c = 0;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nv; v += stride) c += __ldg(newlab + v) < __ldg(label + v);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) c += __shfl_xor_sync(0xffffffffu, c, off);
  if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += warp_sum[w];
    if (s) atomicAdd(changed, s);
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

extern "C" void cc_label_prop(int nv, int ne, const int* rowptr, const int* colidx, const int* label, int* newlab,
                              int* changed, cudaStream_t stream) {
  cudaMemsetAsync(changed, 0, sizeof(int), stream);
  if (nv <= 0) return;
  long long vb = ((long long)nv + kThreads - 1) / kThreads;
  const long long cap = 32LL * sm_count();
  if (vb > cap) vb = cap;
  cc_copy<<<(unsigned int)vb, kThreads, 0, stream>>>(nv, label, newlab);
  if (ne > 0) {
    const long long tiles = ((long long)ne + kTile - 1) / kTile;
    cc_segmented<<<(unsigned int)tiles, kThreads, 0, stream>>>(nv, ne, rowptr, colidx, label, newlab);
  }
  cc_count<<<(unsigned int)vb, kThreads, 0, stream>>>(nv, label, newlab, changed);
}

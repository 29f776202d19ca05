// strategy: tile_window — output-balanced: each block owns 4096 consecutive nonzeros, two threads locate the first and last row touching the tile with global binary searches, the block stages that slice of rowptr in shared memory (falling back to global memory if many empty rows make it too long), and every thread resolves 16 nonzeros by upper_bound searches in the staged slice; stores are fully coalesced
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;
constexpr int kSlice = 4096;

// number of entries of p[lo, hi) that are <= v, offset by lo (i.e. upper_bound)
__device__ __forceinline__ int upper_bound(const int* p, int lo, int hi, int v) {
  while (lo < hi) {
    const int mid = lo + ((hi - lo) >> 1);
    if (p[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
csr_expand_tiles(int rows, int nnz, const int* __restrict__ rowptr, int* __restrict__ rowidx) {
  __shared__ int slice[kSlice];
  __shared__ int s_r0, s_r1;
  const int k0 = blockIdx.x * kTile;
  const int k1 = min(k0 + kTile, nnz);  // exclusive
  // row of k = upper_bound(rowptr[0..rows], k) - 1
  if (threadIdx.x == 0) s_r0 = upper_bound(rowptr, 0, rows + 1, k0) - 1;
  if (threadIdx.x == 32) s_r1 = upper_bound(rowptr, 0, rows + 1, k1 - 1) - 1;
  __syncthreads();
  const int r0 = s_r0, r1 = s_r1;
  // every row of the tile lies in [r0, r1]; the search needs rowptr[r0 .. r1+1)
  const int len = r1 - r0 + 1;
  const bool staged = len <= kSlice;
  if (staged)
    for (int i = threadIdx.x; i < len; i += kThreads) slice[i] = __ldg(rowptr + r0 + i);
  __syncthreads();
#pragma unroll 4
  for (int q = 0; q < kItems; ++q) {
    const int k = k0 + q * kThreads + threadIdx.x;
    if (k < k1) {
      const int r = staged ? r0 + upper_bound(slice, 0, len, k) - 1 : upper_bound(rowptr, r0, r1 + 1, k) - 1;
      __stcs(rowidx + k, r);
    }
  }
}

}  // namespace

extern "C" void csr_row_expand(int rows, int nnz, const int* rowptr, int* rowidx, cudaStream_t stream) {
  if (rows <= 0 || nnz <= 0) return;
  const unsigned blocks = (unsigned)(((long long)nnz + kTile - 1) / kTile);
  csr_expand_tiles<<<blocks, kThreads, 0, stream>>>(rows, nnz, rowptr, rowidx);
}

// strategy: mark_scan — work-efficient O(rows + nnz) without per-element searches: zero the output, let each non-empty row drop its index at its first nonzero, then an in-place inclusive max-scan over 4096-element tiles (int4 vector loads, per-thread serial scan, warp-shuffle max-scan across threads) fills the gaps; each tile seeds its scan with the row of the element before it, found by a single binary search, so tiles never wait on each other
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;

__global__ void mark_row_starts(int rows, const int* __restrict__ rowptr, int* __restrict__ rowidx) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int b = __ldg(rowptr + r), e = __ldg(rowptr + r + 1);
  if (b < e) rowidx[b] = r;  // non-empty rows have distinct starts
}

__global__ void __launch_bounds__(kThreads)
max_scan_tiles(int rows, int nnz, const int* __restrict__ rowptr, int* __restrict__ rowidx) {
  __shared__ int warp_max[kThreads / 32];
  __shared__ int s_seed;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const long long k0 = (long long)blockIdx.x * kTile;
  if (threadIdx.x == 0) {
    // row of element k0-1 (0 for the first tile): marks are >= 0, so 0 is a neutral seed there
    int seed = 0;
    if (k0 > 0) {
      int lo = 0, hi = rows + 1;
      const int v = (int)(k0 - 1);
      while (lo < hi) {
        const int mid = lo + ((hi - lo) >> 1);
        if (__ldg(rowptr + mid) <= v)
          lo = mid + 1;
        else
          hi = mid;
      }
      seed = lo - 1;
    }
    s_seed = seed;
  }
  const long long base = k0 + (long long)threadIdx.x * kItems;
  int v[kItems];
  const bool full = base + kItems <= nnz;
  if (full) {
    const int4* p = reinterpret_cast<const int4*>(rowidx + base);
#pragma unroll
    for (int q = 0; q < kItems / 4; ++q) {
      const int4 t = p[q];
      v[4 * q] = t.x;
      v[4 * q + 1] = t.y;
      v[4 * q + 2] = t.z;
      v[4 * q + 3] = t.w;
    }
  } else {
#pragma unroll
    for (int q = 0; q < kItems; ++q) v[q] = base + q < nnz ? rowidx[base + q] : 0;
  }
  // serial inclusive max-scan of the thread's 16 marks
#pragma unroll
  for (int q = 1; q < kItems; ++q) v[q] = max(v[q], v[q - 1]);
  // exclusive max over earlier threads: warp shuffle scan, then across warps
  int incl = v[kItems - 1];
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl = max(incl, t);
  }
  int excl = __shfl_up_sync(0xffffffffu, incl, 1);
  if (lane == 0) excl = 0;
  if (lane == 31) warp_max[w] = incl;
  __syncthreads();
  int carry = s_seed;
  for (int j = 0; j < w; ++j) carry = max(carry, warp_max[j]);
  carry = max(carry, excl);
#pragma unroll
  for (int q = 0; q < kItems; ++q) v[q] = max(v[q], carry);
  if (full) {
    int4* p = reinterpret_cast<int4*>(rowidx + base);
#pragma unroll
    for (int q = 0; q < kItems / 4; ++q) p[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
  } else {
#pragma unroll
    for (int q = 0; q < kItems; ++q)
      if (base + q < nnz) rowidx[base + q] = v[q];
  }
}

}  // namespace

extern "C" void csr_row_expand(int rows, int nnz, const int* rowptr, int* rowidx, cudaStream_t stream) {
  if (rows <= 0 || nnz <= 0) return;
  cudaMemsetAsync(rowidx, 0, sizeof(int) * (size_t)nnz, stream);
  mark_row_starts<<<(rows + 255) / 256, 256, 0, stream>>>(rows, rowptr, rowidx);
  const unsigned tiles = (unsigned)(((long long)nnz + kTile - 1) / kTile);
  max_scan_tiles<<<tiles, kThreads, 0, stream>>>(rows, nnz, rowptr, rowidx);
}

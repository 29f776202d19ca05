// strategy: grid_radix11 — grid-level cooperation for any batch size: three radix passes of 11/11/10 bits; in each pass many blocks share one row (a grid of row chunks), build 2048-bin shared histograms of the keys matching the row's current prefix and flush them with global atomics, then a one-warp-per-row kernel scans the bins and narrows the prefix and the remaining rank
#include <cuda_runtime.h>

namespace {

constexpr int kBins = 2048;
constexpr int kHistThreads = 256;
constexpr int kChunk = 8192;

__device__ __forceinline__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float float_of(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key ^ 0x80000000u) : ~key);
}

struct RowSel {
  unsigned prefix;  // key bits fixed so far
  unsigned mask;    // which bits are fixed
  int rank;         // 1-based rank of the answer among keys matching prefix
};

__global__ void init_sel(int batch, int k, RowSel* sel) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < batch) sel[r] = RowSel{0u, 0u, k};
}

__global__ void __launch_bounds__(kHistThreads)
chunk_hist(int n, int chunks, int shift, unsigned digit_mask, const float* __restrict__ x,
           const RowSel* __restrict__ sel, unsigned* __restrict__ ghist) {
  __shared__ unsigned h[kBins];
  // 1-D grid of rows x chunks (no 65535 limit on the row count)
  const int r = (int)(blockIdx.x / (unsigned)chunks);
  const int chunk = (int)(blockIdx.x - (unsigned)r * (unsigned)chunks);
  for (int b = threadIdx.x; b < kBins; b += kHistThreads) h[b] = 0;
  __syncthreads();
  const RowSel s = sel[r];
  const float* row = x + (long long)r * n;
  const int i0 = chunk * kChunk;
  const int i1 = min(i0 + kChunk, n);
  for (int i = i0 + threadIdx.x; i < i1; i += kHistThreads) {
    const unsigned key = key_of(__ldg(row + i));
    if ((key & s.mask) == s.prefix) atomicAdd(h + ((key >> shift) & digit_mask), 1u);
  }
  __syncthreads();
  unsigned* g = ghist + (long long)r * kBins;
  for (int b = threadIdx.x; b < kBins; b += kHistThreads)
    if (h[b]) atomicAdd(g + b, h[b]);
}

// one warp per row: 64 bins per lane, warp scan, pick the digit holding the rank-th key
__global__ void pick_digit(int batch, int shift, unsigned digit_mask, const unsigned* __restrict__ ghist,
                           RowSel* __restrict__ sel, float* __restrict__ out, int last) {
  const int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (r >= batch) return;  // whole warps leave together
  const unsigned* g = ghist + (long long)r * kBins;
  const int per_lane = kBins / 32;
  unsigned local = 0;
  for (int q = 0; q < per_lane; ++q) local += g[lane * per_lane + q];
  unsigned incl = local;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned t = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += t;
  }
  const RowSel s = sel[r];
  unsigned before = incl - local;
  if (before < (unsigned)s.rank && (unsigned)s.rank <= incl) {
    int q = 0;
    for (;;) {
      const unsigned c = g[lane * per_lane + q];
      if (before + c >= (unsigned)s.rank) break;
      before += c;
      ++q;
    }
    RowSel ns;
    ns.prefix = s.prefix | ((unsigned)(lane * per_lane + q) << shift);
    ns.mask = s.mask | (digit_mask << shift);
    ns.rank = s.rank - (int)before;
    sel[r] = ns;
    if (last) out[r] = float_of(ns.prefix);
  }
}

}  // namespace

extern "C" void kth_smallest_rows_f32(int batch, int n, int k, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0) return;
  RowSel* sel = nullptr;
  unsigned* ghist = nullptr;
  const size_t hist_bytes = sizeof(unsigned) * (size_t)batch * kBins;
  cudaMallocAsync((void**)&sel, sizeof(RowSel) * (size_t)batch, stream);
  cudaMallocAsync((void**)&ghist, hist_bytes, stream);
  init_sel<<<(batch + 255) / 256, 256, 0, stream>>>(batch, k, sel);
  const int shifts[3] = {21, 10, 0};
  const unsigned masks[3] = {0x7ffu, 0x7ffu, 0x3ffu};
  const int chunks = (n + kChunk - 1) / kChunk;
  const unsigned grid = (unsigned)((long long)chunks * batch);
  const unsigned pick_blocks = (unsigned)(((long long)batch * 32 + 255) / 256);
  for (int p = 0; p < 3; ++p) {
    cudaMemsetAsync(ghist, 0, hist_bytes, stream);
    chunk_hist<<<grid, kHistThreads, 0, stream>>>(n, chunks, shifts[p], masks[p], x, sel, ghist);
    pick_digit<<<pick_blocks, 256, 0, stream>>>(batch, shifts[p], masks[p], ghist, sel, out, p == 2);
  }
  cudaFreeAsync(ghist, stream);
  cudaFreeAsync(sel, stream);
}

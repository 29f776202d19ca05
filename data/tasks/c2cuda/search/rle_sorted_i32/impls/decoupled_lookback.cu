// strategy: decoupled_lookback — single-pass compaction: tiles of 4096 elements are claimed in order through an atomic ticket; inside a tile, warp ballots over coalesced rows give the run heads and a warp scan of the 128 ballot counts places them; the tile's global offset comes from a decoupled look-back over the predecessors' published aggregate/inclusive words, so the input is read once
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRows = 16;
constexpr int kTile = kThreads * kRows;
constexpr unsigned long long kAggregate = 1ull << 32;
constexpr unsigned long long kInclusive = 2ull << 32;

__global__ void __launch_bounds__(kThreads)
rle_lookback(int n, int tiles, const int* __restrict__ a, int* __restrict__ vals, int* __restrict__ pos,
             int* __restrict__ nuniq, unsigned long long* status, unsigned int* ticket) {
  __shared__ int off[kRows * kWarps];  // exclusive offsets of each (row, warp) ballot inside the tile
  __shared__ int s_tile, s_prefix, s_total;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (threadIdx.x == 0) s_tile = (int)atomicAdd(ticket, 1u);
  __syncthreads();
  const int tile = s_tile;
  const long long base = (long long)tile * kTile;
  int v[kRows];
  unsigned ball[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const long long i = base + r * kThreads + threadIdx.x;
    bool head = false;
    v[r] = 0;
    if (i < n) {
      v[r] = __ldg(a + i);
      head = (i == 0) || (__ldg(a + i - 1) != v[r]);
    }
    ball[r] = __ballot_sync(0xffffffffu, head);
    if (lane == 0) off[r * kWarps + w] = __popc(ball[r]);
  }
  __syncthreads();
  if (w == 0) {
    // 128 counts in (row, warp) order, 4 consecutive per lane: exclusive warp scan
    int c[4], s = 0;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      c[q] = off[lane * 4 + q];
      s += c[q];
    }
    int incl = s;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int t = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += t;
    }
    int run = incl - s;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      off[lane * 4 + q] = run;
      run += c[q];
    }
    const int agg = __shfl_sync(0xffffffffu, incl, 31);
    if (lane == 0) {
      int prefix = 0;
      if (tile == 0) {
        atomicExch(status, kInclusive | (unsigned)agg);
      } else {
        atomicExch(status + tile, kAggregate | (unsigned)agg);
        for (int j = tile - 1; j >= 0; --j) {
          unsigned long long word;
          do {
            word = *((volatile unsigned long long*)(status + j));
          } while ((word >> 32) == 0);
          prefix += (int)(word & 0xffffffffu);
          if ((word >> 32) == 2) break;
        }
        atomicExch(status + tile, kInclusive | (unsigned)(prefix + agg));
      }
      s_prefix = prefix;
      s_total = prefix + agg;
    }
  }
  __syncthreads();
  const int prefix = s_prefix;
  if (tile == tiles - 1 && threadIdx.x == 0) nuniq[0] = s_total;
  const unsigned lt = (1u << lane) - 1u;
#pragma unroll
  for (int r = 0; r < kRows; ++r)
    if (ball[r] & (1u << lane)) {
      const int k = prefix + off[r * kWarps + w] + __popc(ball[r] & lt);
      vals[k] = v[r];
      pos[k] = (int)(base + r * kThreads + threadIdx.x);
    }
}

__global__ void runs_from_starts(int n, const int* __restrict__ nuniq, const int* __restrict__ pos,
                                 int* __restrict__ vals, int* __restrict__ runs) {
  const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int u = __ldg(nuniq);
  if (k >= u) {
    vals[k] = 0;
    runs[k] = 0;
    return;
  }
  const int start = __ldg(pos + k);
  runs[k] = (k + 1 == u ? n : __ldg(pos + k + 1)) - start;
}

}  // namespace

extern "C" void rle_sorted_i32(int n, const int* a, int* vals, int* runs, int* nuniq, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(nuniq, 0, sizeof(int), stream);
    return;
  }
  const int tiles = (int)(((long long)n + kTile - 1) / kTile);
  unsigned long long* status = nullptr;
  int* pos = nullptr;
  const size_t status_bytes = sizeof(unsigned long long) * ((size_t)tiles + 1);
  cudaMallocAsync((void**)&status, status_bytes, stream);
  cudaMallocAsync((void**)&pos, sizeof(int) * (size_t)n, stream);
  cudaMemsetAsync(status, 0, status_bytes, stream);
  unsigned int* ticket = reinterpret_cast<unsigned int*>(status + tiles);
  rle_lookback<<<tiles, kThreads, 0, stream>>>(n, tiles, a, vals, pos, nuniq, status, ticket);
  runs_from_starts<<<(unsigned)(((long long)n + 255) / 256), 256, 0, stream>>>(n, nuniq, pos, vals, runs);
  cudaFreeAsync(pos, stream);
  cudaFreeAsync(status, stream);
}

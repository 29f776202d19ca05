// strategy: radix4_warp_rank — stable LSD radix sort in 8 passes of 4-bit digits: per-tile 16-bin histograms in shared memory, a one-block scan of the digit-major count table, then each key's stable rank inside its tile from its warp's peer mask (__match_any_sync) and per-warp digit counts scanned in shared memory, written straight to its global position (no shared-memory reordering)
#include <cuda_runtime.h>

constexpr int kThreads = 1024;
constexpr int kRounds = 4;                    // keys per thread; round r holds keys base + r*kThreads + thread
constexpr int kTile = kThreads * kRounds;     // keys per block
constexpr int kWarps = kThreads / 32;
constexpr int kSlots = kRounds * kWarps;      // (round, warp) in key order
constexpr int kDigits = 16;

__global__ void tile_histogram(const unsigned int* src, int n, int shift, int tiles, int* counts) {
  __shared__ int h[kDigits];
  if (threadIdx.x < kDigits) h[threadIdx.x] = 0;
  __syncthreads();
  const long long base = (long long)blockIdx.x * kTile;
  for (int r = 0; r < kRounds; ++r) {
    const long long i = base + (long long)r * kThreads + threadIdx.x;
    if (i < n) atomicAdd(&h[(src[i] >> shift) & 15u], 1);
  }
  __syncthreads();
  if (threadIdx.x < kDigits) counts[threadIdx.x * tiles + blockIdx.x] = h[threadIdx.x];
}

// Exclusive scan of counts[0..m) in place by one block: each thread a contiguous chunk.
__global__ void scan_counts(int* counts, int m) {
  __shared__ int part[kThreads];
  const int chunk = (m + kThreads - 1) / kThreads;
  const int lo = threadIdx.x * chunk;
  const int hi = min(m, lo + chunk);
  int sum = 0;
  for (int i = lo; i < hi; ++i) sum += counts[i];
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int off = 1; off < kThreads; off <<= 1) {  // inclusive Hillis-Steele scan of the chunk sums
    const int v = threadIdx.x >= off ? part[threadIdx.x - off] : 0;
    __syncthreads();
    part[threadIdx.x] += v;
    __syncthreads();
  }
  int run = part[threadIdx.x] - sum;
  for (int i = lo; i < hi; ++i) {
    const int c = counts[i];
    counts[i] = run;
    run += c;
  }
}

// offsets[d * tiles + b]: where tile b's keys of digit d start in dst (the scanned histograms).
__global__ void scatter(const unsigned int* src, unsigned int* dst, int n, int shift, int tiles, const int* offsets) {
  __shared__ int before[kDigits][kSlots];  // keys of digit d in the (round, warp) slot, then those before it
  for (int i = threadIdx.x; i < kDigits * kSlots; i += kThreads) (&before[0][0])[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned int lanes_below = (1u << lane) - 1u;
  const long long base = (long long)blockIdx.x * kTile;
  unsigned int key[kRounds];
  int digit[kRounds], rank[kRounds];
  for (int r = 0; r < kRounds; ++r) {
    const long long i = base + (long long)r * kThreads + threadIdx.x;
    const bool valid = i < n;
    key[r] = valid ? src[i] : 0u;
    digit[r] = valid ? (int)((key[r] >> shift) & 15u) : kDigits;  // kDigits: no key here
    const unsigned int peers = __match_any_sync(0xffffffffu, digit[r]);
    rank[r] = __popc(peers & lanes_below);
    if (valid && rank[r] == 0) before[digit[r]][r * kWarps + warp] = __popc(peers);
  }
  __syncthreads();
  if (threadIdx.x < kDigits) {
    int run = 0;
    for (int s = 0; s < kSlots; ++s) {
      const int c = before[threadIdx.x][s];
      before[threadIdx.x][s] = run;
      run += c;
    }
  }
  __syncthreads();
  for (int r = 0; r < kRounds; ++r) {
    const int d = digit[r];
    if (d == kDigits) continue;
    const long long pos = (long long)offsets[d * tiles + blockIdx.x] + before[d][r * kWarps + warp] + rank[r];
    dst[pos] = key[r];
  }
}

extern "C" void sort_u32(int n, const unsigned int* keys, unsigned int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int tiles = (int)(((long long)n + kTile - 1) / kTile);
  unsigned int* tmp = nullptr;
  int* counts = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(unsigned int) * (size_t)n, stream);
  cudaMallocAsync((void**)&counts, sizeof(int) * (size_t)kDigits * tiles, stream);
  const unsigned int* src = keys;
  for (int pass = 0; pass < 8; ++pass) {  // even passes write tmp, odd ones out: the last (7) ends in out
    unsigned int* dst = (pass % 2 == 0) ? tmp : out;
    tile_histogram<<<tiles, kThreads, 0, stream>>>(src, n, 4 * pass, tiles, counts);
    scan_counts<<<1, kThreads, 0, stream>>>(counts, kDigits * tiles);
    scatter<<<tiles, kThreads, 0, stream>>>(src, dst, n, 4 * pass, tiles, counts);
    src = dst;
  }
  cudaFreeAsync(counts, stream);
  cudaFreeAsync(tmp, stream);
}

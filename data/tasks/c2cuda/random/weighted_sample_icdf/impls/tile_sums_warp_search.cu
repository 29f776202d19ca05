// strategy: tile_sums_warp_search — no full CDF: only the 64-bit sums of 1024-weight tiles are scanned (n/1024 entries, L2-resident); one warp per draw binary-searches those, then finds the weight inside its tile with a warp-shuffle scan over 32-weight lane chunks and a short walk by the one lane whose chunk holds the target
#include <cuda_runtime.h>
#include <stdint.h>

constexpr int kTile = 1024;           // weights per tile
constexpr int kChunk = kTile / 32;    // weights per lane inside a tile
constexpr int kScanThreads = 1024;

// tsum[b] = sum of w over tile b (256 threads, 4 weights each).
__global__ void tile_sums(int n, const uint32_t* w, unsigned long long* tsum) {
  __shared__ unsigned long long warp_sum[8];
  const long long base = (long long)blockIdx.x * kTile;
  unsigned long long s = 0;
  for (int e = threadIdx.x; e < kTile; e += blockDim.x) {
    const long long i = base + e;
    if (i < n) s += w[i];
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long t = 0;
    for (int k = 0; k < (int)(blockDim.x >> 5); ++k) t += warp_sum[k];
    tsum[blockIdx.x] = t;
  }
}

// In place: tsum becomes the inclusive prefix of the tile sums (one block, a contiguous chunk per thread).
__global__ void scan_tiles(unsigned long long* tsum, int tiles) {
  __shared__ unsigned long long part[kScanThreads];
  const int chunk = (tiles + kScanThreads - 1) / kScanThreads;
  const int lo = threadIdx.x * chunk;
  const int hi = min(tiles, lo + chunk);
  unsigned long long s = 0;
  for (int i = lo; i < hi; ++i) s += tsum[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int off = 1; off < kScanThreads; off <<= 1) {
    const unsigned long long v = threadIdx.x >= off ? part[threadIdx.x - off] : 0ull;
    __syncthreads();
    part[threadIdx.x] += v;
    __syncthreads();
  }
  unsigned long long run = part[threadIdx.x] - s;
  for (int i = lo; i < hi; ++i) {
    run += tsum[i];
    tsum[i] = run;
  }
}

__global__ void draw(int n, int m, int tiles, unsigned long long seed, const uint32_t* w,
                     const unsigned long long* tcdf, int* idx) {
  const long long j = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;  // one warp per draw
  const int lane = threadIdx.x & 31;
  if (j >= m) return;  // whole warps leave together (blockDim is a multiple of 32)
  const unsigned long long total = tiles > 0 ? tcdf[tiles - 1] : 0ull;
  if (total == 0) {
    if (lane == 0) idx[j] = -1;
    return;
  }
  unsigned long long z = seed + ((unsigned long long)j + 1ull) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  const unsigned long long t = z % total;
  int lo = 0, hi = tiles - 1;  // the first tile whose inclusive prefix exceeds t
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (tcdf[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  const unsigned long long r = t - (lo > 0 ? tcdf[lo - 1] : 0ull);  // target inside the tile: r < its sum
  const long long start = (long long)lo * kTile + (long long)lane * kChunk;
  unsigned long long mine = 0;
  for (int k = 0; k < kChunk; ++k) {
    const long long i = start + k;
    if (i < n) mine += w[i];
  }
  unsigned long long incl = mine;
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned long long v = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += v;
  }
  const unsigned int past = __ballot_sync(0xffffffffu, incl > r);  // nonzero: the tile's sum exceeds r
  const int owner = __ffs(past) - 1;
  if (lane == owner) {
    unsigned long long acc = incl - mine;  // weights before this lane's chunk
    int k = 0;
    while (acc + w[start + k] <= r) acc += w[start + k++];  // stops inside the chunk: acc + mine > r
    idx[j] = (int)(start + k);
  }
}

extern "C" void weighted_sample_icdf(int n, int m, unsigned long long seed, const uint32_t* w, int* idx,
                                     cudaStream_t stream) {
  if (m <= 0) return;
  const int tiles = n > 0 ? (int)(((long long)n + kTile - 1) / kTile) : 0;
  unsigned long long* tcdf = nullptr;
  cudaMallocAsync((void**)&tcdf, sizeof(unsigned long long) * (size_t)(tiles > 0 ? tiles : 1), stream);
  if (tiles > 0) {
    tile_sums<<<tiles, 256, 0, stream>>>(n, w, tcdf);
    scan_tiles<<<1, kScanThreads, 0, stream>>>(tcdf, tiles);
  }
  const int threads = 256;  // 8 draws per block
  const long long blocks = ((long long)m * 32 + threads - 1) / threads;
  draw<<<(unsigned)blocks, threads, 0, stream>>>(n, m, tiles, seed, w, tcdf, idx);
  cudaFreeAsync(tcdf, stream);
}

// strategy: bitonic_shared — bitonic sort of a power-of-two padded copy in which every compare-exchange step of a stride below the 2048-key tile runs inside one shared-memory kernel (a tile sort, then one tile merge per phase): only strides of a whole tile or more go through global memory
#include <cuda_runtime.h>

constexpr int kTile = 2048;          // keys per block, all in shared memory
constexpr int kHalf = kTile / 2;     // threads per block: one compare-exchange pair each

// Steps j = jstart, jstart/2, ..., 1 of phase k on the tile s whose first key has global index base.
// Pair t of a step is (lo, lo + j) with lo = (t / j) * 2j + t % j; the pair sorts ascending when bit k
// of its global index is clear, as in the global network.
__device__ void tile_steps(unsigned int* s, long long base, long long k, int jstart) {
  const int t = threadIdx.x;
  for (int j = jstart; j > 0; j >>= 1) {
    const int lo = (t / j) * 2 * j + (t % j);
    const int hi = lo + j;
    const bool ascending = ((base + lo) & k) == 0;
    const unsigned int a = s[lo], b = s[hi];
    if ((a > b) == ascending) {
      s[lo] = b;
      s[hi] = a;
    }
    __syncthreads();
  }
}

// Phases k = 2 .. kTile entirely in shared memory; keys past n are padded with the largest key.
__global__ void sort_tiles(int n, const unsigned int* keys, unsigned int* buf) {
  __shared__ unsigned int s[kTile];
  const long long base = (long long)blockIdx.x * kTile;
  for (int e = threadIdx.x; e < kTile; e += kHalf) {
    const long long i = base + e;
    s[e] = i < n ? keys[i] : 0xffffffffu;
  }
  __syncthreads();
  for (int k = 2; k <= kTile; k <<= 1) tile_steps(s, base, k, k >> 1);
  for (int e = threadIdx.x; e < kTile; e += kHalf) buf[base + e] = s[e];
}

// The steps of phase k with a stride below the tile, for every tile.
__global__ void merge_tiles(unsigned int* buf, long long k) {
  __shared__ unsigned int s[kTile];
  const long long base = (long long)blockIdx.x * kTile;
  for (int e = threadIdx.x; e < kTile; e += kHalf) s[e] = buf[base + e];
  __syncthreads();
  tile_steps(s, base, k, kHalf);
  for (int e = threadIdx.x; e < kTile; e += kHalf) buf[base + e] = s[e];
}

// One step of phase k with stride j >= kTile, through global memory.
__global__ void global_step(unsigned int* buf, long long pairs, long long k, long long j) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  const long long lo = (t / j) * 2 * j + (t % j);
  const long long hi = lo + j;
  const bool ascending = (lo & k) == 0;
  const unsigned int a = buf[lo], b = buf[hi];
  if ((a > b) == ascending) {
    buf[lo] = b;
    buf[hi] = a;
  }
}

__global__ void copy_first(int n, const unsigned int* buf, unsigned int* out) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[i];
}

extern "C" void sort_u32(int n, const unsigned int* keys, unsigned int* out, cudaStream_t stream) {
  if (n <= 0) return;
  long long np2 = kTile;
  while (np2 < n) np2 <<= 1;
  const long long tiles = np2 / kTile;
  unsigned int* buf = nullptr;
  cudaMallocAsync((void**)&buf, sizeof(unsigned int) * (size_t)np2, stream);
  sort_tiles<<<(unsigned)tiles, kHalf, 0, stream>>>(n, keys, buf);
  const long long pairs = np2 / 2;
  const int threads = 256;
  const unsigned blocks = (unsigned)((pairs + threads - 1) / threads);
  for (long long k = 2LL * kTile; k <= np2; k <<= 1) {
    for (long long j = k >> 1; j >= kTile; j >>= 1) global_step<<<blocks, threads, 0, stream>>>(buf, pairs, k, j);
    merge_tiles<<<(unsigned)tiles, kHalf, 0, stream>>>(buf, k);
  }
  copy_first<<<(unsigned)(((long long)n + threads - 1) / threads), threads, 0, stream>>>(n, buf, out);
  cudaFreeAsync(buf, stream);
}

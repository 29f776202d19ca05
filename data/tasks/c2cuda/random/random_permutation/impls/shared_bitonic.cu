// strategy: shared_bitonic — bitonic network on 64-bit (key << 32 | index) words where every stage with partner distance j < 2048 runs inside a 2048-word shared-memory tile (one kernel fuses all of a merge's short stages), leaving only the long-distance stages as global passes
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kTile = 2048;  // words per shared-memory tile, kTile/2 threads per block
typedef unsigned long long u64;

__device__ __forceinline__ u64 make_word(long long i, int n, uint32_t s0, uint32_t s1) {
  if (i >= n) return ~0ull;  // padding sorts last
  uint32_t h = ((uint32_t)i * 0x9E3779B1u + s0) ^ s1;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return ((u64)h << 32) | (unsigned int)i;
}

__device__ __forceinline__ void cmp_swap_shared(u64* s, int i, int l, bool up) {
  const u64 x = s[i], y = s[l];
  if ((x > y) == up) {
    s[i] = y;
    s[l] = x;
  }
}

// generate the words of one tile and sort it completely (all k <= tile, directions from the global index)
__global__ void tile_sort_kernel(int n, int tile, uint32_t s0, uint32_t s1, u64* __restrict__ a) {
  extern __shared__ u64 s[];
  const long long base = (long long)blockIdx.x * tile;
  for (int t = threadIdx.x; t < tile; t += blockDim.x) s[t] = make_word(base + t, n, s0, s1);
  __syncthreads();
  for (int k = 2; k <= tile; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      const int t = threadIdx.x;  // tile/2 threads, one pair each
      const int i = 2 * j * (t / j) + (t % j);
      cmp_swap_shared(s, i, i + j, ((base + i) & k) == 0);
      __syncthreads();
    }
  }
  for (int t = threadIdx.x; t < tile; t += blockDim.x) a[base + t] = s[t];
}

// all stages j = tile/2 .. 1 of merge step k, inside one tile
__global__ void tile_merge_kernel(long long k, int tile, u64* __restrict__ a) {
  extern __shared__ u64 s[];
  const long long base = (long long)blockIdx.x * tile;
  for (int t = threadIdx.x; t < tile; t += blockDim.x) s[t] = a[base + t];
  __syncthreads();
  const bool up = (base & k) == 0;  // k > tile: the direction is constant over the tile
  for (int j = tile >> 1; j > 0; j >>= 1) {
    const int t = threadIdx.x;
    const int i = 2 * j * (t / j) + (t % j);
    cmp_swap_shared(s, i, i + j, up);
    __syncthreads();
  }
  for (int t = threadIdx.x; t < tile; t += blockDim.x) a[base + t] = s[t];
}

__global__ void global_stage_kernel(long long half, long long k, long long j, u64* __restrict__ a) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= half) return;
  const long long i = 2 * j * (t / j) + (t % j);
  const long long l = i + j;
  const bool up = (i & k) == 0;
  const u64 x = a[i], y = a[l];
  if ((x > y) == up) {
    a[i] = y;
    a[l] = x;
  }
}

__global__ void extract_kernel(int n, const u64* __restrict__ a, int* __restrict__ perm) {
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) perm[r] = (int)(unsigned int)(a[r] & 0xFFFFFFFFull);
}

}  // namespace

extern "C" void random_permutation(int n, unsigned long long seed, int* perm, cudaStream_t stream) {
  if (n <= 0) return;
  const uint32_t s0 = (uint32_t)seed, s1 = (uint32_t)(seed >> 32);
  long long N = 2;
  while (N < n) N <<= 1;
  const int tile = N < kTile ? (int)N : kTile;
  const long long tiles = N / tile;
  u64* a = nullptr;
  cudaMallocAsync((void**)&a, sizeof(u64) * (size_t)N, stream);
  const size_t smem = sizeof(u64) * (size_t)tile;  // 16 KiB at most
  tile_sort_kernel<<<(unsigned int)tiles, tile / 2, smem, stream>>>(n, tile, s0, s1, a);
  const long long half = N / 2;
  const int threads = 256;
  for (long long k = 2LL * tile; k <= N; k <<= 1) {
    for (long long j = k / 2; j >= tile; j >>= 1)
      global_stage_kernel<<<(unsigned int)((half + threads - 1) / threads), threads, 0, stream>>>(half, k, j, a);
    tile_merge_kernel<<<(unsigned int)tiles, tile / 2, smem, stream>>>(k, tile, a);
  }
  extract_kernel<<<(unsigned int)(((long long)n + threads - 1) / threads), threads, 0, stream>>>(n, a, perm);
  cudaFreeAsync(a, stream);
}

// strategy: warp_split — the walk is a sum of independent steps, so each walker's hash words are split across the 32 lanes of a warp (lane l takes words l, l+32, ...), tallied with __popc and combined with a butterfly __shfl_xor_sync reduction; keeps the GPU full even with few, very long walks
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t walk_word(unsigned long long seed, int w, int t) {
  unsigned long long z = seed ^ (((unsigned long long)(unsigned int)w << 32) | (unsigned int)t);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  return (uint32_t)(z >> 32);
}

__global__ void __launch_bounds__(kThreads)
walk_warp_kernel(int walkers, int steps, unsigned long long seed, int* __restrict__ x, int* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * kThreads) >> 5;
  const int words = (steps + 15) / 16;
  const int rem = steps % 16;
  const uint32_t last_mask = rem ? (0x55555555u & ((1u << (2 * rem)) - 1u)) : 0x55555555u;
  for (long long wl = ((long long)blockIdx.x * kThreads + threadIdx.x) >> 5; wl < walkers; wl += warps_total) {
    const int w = (int)wl;  // warp-uniform
    int dx = 0, dy = 0;
    for (int t = lane; t < words; t += 32) {
      const uint32_t word = walk_word(seed, w, t);
      const uint32_t m = (t == words - 1) ? last_mask : 0x55555555u;
      const uint32_t lo = word & m, hi = (word >> 1) & m;
      dx += __popc(~(hi | lo) & m) - __popc(lo & ~hi);
      dy += __popc(hi & ~lo) - __popc(hi & lo);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      dx += __shfl_xor_sync(0xffffffffu, dx, off);
      dy += __shfl_xor_sync(0xffffffffu, dy, off);
    }
    if (lane == 0) {
      x[w] = dx;
      y[w] = dy;
    }
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

extern "C" void lattice_walk_2d(int walkers, int steps, unsigned long long seed, int* x, int* y, cudaStream_t stream) {
  if (walkers <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)walkers + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  walk_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(walkers, steps, seed, x, y);
}

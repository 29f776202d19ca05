// strategy: popcount — one thread per walker, one hash per 16 steps; the 16 two-bit directions of a word are tallied at once with bit masks and __popc (no per-step loop or branches), a partial mask for the last word
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ uint32_t walk_word(unsigned long long seed, int w, int t) {
  unsigned long long z = seed ^ (((unsigned long long)(unsigned int)w << 32) | (unsigned int)t);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  return (uint32_t)(z >> 32);
}

// net (dx, dy) of the steps of one word selected by m (m has bit 2k set for each step k used)
__device__ __forceinline__ void tally(uint32_t word, uint32_t m, int& dx, int& dy) {
  const uint32_t lo = word & m;          // bit 0 of each 2-bit direction
  const uint32_t hi = (word >> 1) & m;   // bit 1
  dx += __popc(~(hi | lo) & m) - __popc(lo & ~hi);
  dy += __popc(hi & ~lo) - __popc(hi & lo);
}

__global__ void walk_popc_kernel(int walkers, int steps, unsigned long long seed, int* __restrict__ x,
                                 int* __restrict__ y) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= walkers) return;
  const int full = steps / 16, rem = steps % 16;
  int dx = 0, dy = 0;
#pragma unroll 4
  for (int t = 0; t < full; ++t) tally(walk_word(seed, w, t), 0x55555555u, dx, dy);
  if (rem) tally(walk_word(seed, w, full), 0x55555555u & ((1u << (2 * rem)) - 1u), dx, dy);
  x[w] = dx;
  y[w] = dy;
}

}  // namespace

extern "C" void lattice_walk_2d(int walkers, int steps, unsigned long long seed, int* x, int* y, cudaStream_t stream) {
  if (walkers <= 0) return;
  const int threads = 128;
  walk_popc_kernel<<<(walkers + threads - 1) / threads, threads, 0, stream>>>(walkers, steps, seed, x, y);
}

// strategy: naive (weak) — one thread per walker simulates every step literally, re-deriving the hash word for each single step (16x redundant hashing) and branching on the direction
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void walk_naive_kernel(int walkers, int steps, unsigned long long seed, int* x, int* y) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= walkers) return;
  int px = 0, py = 0;
  for (int s = 0; s < steps; ++s) {
    unsigned long long z = seed ^ (((unsigned long long)(unsigned int)w << 32) | (unsigned int)(s / 16));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    unsigned int d = ((unsigned int)(z >> 32) >> (2 * (s % 16))) & 3u;
    if (d == 0) ++px;
    else if (d == 1) --px;
    else if (d == 2) ++py;
    else --py;
  }
  x[w] = px;
  y[w] = py;
}

extern "C" void lattice_walk_2d(int walkers, int steps, unsigned long long seed, int* x, int* y, cudaStream_t stream) {
  if (walkers <= 0) return;
  const int threads = 256;
  walk_naive_kernel<<<(walkers + threads - 1) / threads, threads, 0, stream>>>(walkers, steps, seed, x, y);
}

/* Simple 2-D lattice random walks driven by counter-based SplitMix64 words (16 steps per word). */
#include <stdint.h>

static uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void lattice_walk_2d(int walkers, int steps, unsigned long long seed, int* x, int* y) {
  for (int w = 0; w < walkers; ++w) {
    int px = 0, py = 0;
    uint32_t word = 0;
    for (int s = 0; s < steps; ++s) {
      if (s % 16 == 0) {
        uint64_t key = ((uint64_t)(uint32_t)w << 32) | (uint64_t)(uint32_t)(s / 16);
        word = (uint32_t)(splitmix64((uint64_t)seed ^ key) >> 32);
      }
      switch ((word >> (2 * (s % 16))) & 3u) {
        case 0: ++px; break;
        case 1: --px; break;
        case 2: ++py; break;
        default: --py; break;
      }
    }
    x[w] = px;
    y[w] = py;
  }
}

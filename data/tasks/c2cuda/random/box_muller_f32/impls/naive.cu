// strategy: naive (weak) — one thread per output element redraws its pair and evaluates log/sqrt/cos or sin in double precision (2x redundant draws, slow FP64 transcendentals), scalar stores
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void box_muller_naive_kernel(int n, unsigned long long seed, float* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long j = (unsigned long long)(i >> 1);
  unsigned long long z = seed + (j + 1ull) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  double u1 = (double)((z >> 40) + 1) * (1.0 / 16777216.0);
  double u2 = (double)((z >> 16) & 0xFFFFFFull) * (1.0 / 16777216.0);
  double r = sqrt(-2.0 * log(u1));
  double t = 6.283185307179586476925286766559 * u2;
  out[i] = (float)((i & 1) ? r * sin(t) : r * cos(t));
}

extern "C" void box_muller_f32(int n, unsigned long long seed, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  box_muller_naive_kernel<<<(unsigned int)(((long long)n + threads - 1) / threads), threads, 0, stream>>>(n, seed,
                                                                                                         out);
}

// strategy: naive (weak) — one thread per start, one branchy Collatz step per loop trip (a data-dependent branch every step, lanes diverge on parity)
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void collatz_naive_kernel(int n, long long lo, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t x = (uint64_t)lo + (uint64_t)i;
  int steps = 0;
  while (x != 1) {
    if (x & 1u)
      x = 3u * x + 1u;
    else
      x >>= 1;
    ++steps;
  }
  out[i] = steps;
}

extern "C" void collatz_steps(int n, long long lo, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  collatz_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, lo, out);
}

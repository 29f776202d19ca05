// strategy: ctz_shortcut — each loop trip does one 3x+1 step and then strips every factor of two at once with a count-trailing-zeros (__ffsll), so one trip covers 1 + tz Collatz steps with no parity branch; grid-stride over starts
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void collatz_ctz_kernel(int n, long long lo, int* __restrict__ out) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint64_t x = (uint64_t)lo + (uint64_t)i;
    int tz = __ffsll((long long)x) - 1;  // x >= 1, so tz >= 0
    x >>= tz;
    int steps = tz;
    while (x != 1) {  // x is odd here
      x = 3u * x + 1u;
      tz = __ffsll((long long)x) - 1;
      x >>= tz;
      steps += 1 + tz;
    }
    out[i] = steps;
  }
}

extern "C" void collatz_steps(int n, long long lo, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  int blocks = (n + threads - 1) / threads;
  if (blocks > 132 * 32) blocks = 132 * 32;
  collatz_ctz_kernel<<<blocks, threads, 0, stream>>>(n, lo, out);
}

// strategy: naive (weak) — one thread per value, trial division by every odd number up to sqrt(x): a warp waits for its slowest lane (a prime costs ~32768 divisions)
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void spf_naive_kernel(int n, const uint32_t* x, uint32_t* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t v = x[i];
  uint32_t f = v;
  if (v >= 2) {
    if ((v & 1u) == 0) {
      f = 2;
    } else {
      for (uint32_t d = 3; (uint64_t)d * d <= v; d += 2) {
        if (v % d == 0) {
          f = d;
          break;
        }
      }
    }
  }
  out[i] = f;
}

extern "C" void smallest_prime_factor(int n, const uint32_t* x, uint32_t* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  spf_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, x, out);
}

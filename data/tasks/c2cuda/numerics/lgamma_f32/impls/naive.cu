// strategy: naive (weak) — one thread per element calling the double-precision lgamma of the CUDA math library (fp64 throughput, a long branchy library path)
#include <cuda_runtime.h>

__global__ void lgamma_naive_kernel(int n, const float* x, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = (float)lgamma((double)x[i]);
}

extern "C" void lgamma_f32(int n, const float* x, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  lgamma_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, x, out);
}

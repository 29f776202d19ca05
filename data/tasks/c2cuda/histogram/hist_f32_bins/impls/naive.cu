// strategy: naive (weak) — one thread per value, each in-range value does a global atomicAdd on its bin
#include <cuda_runtime.h>

__global__ void histf_naive_kernel(int n, int nbins, float lo, float hi, float scale,
                                   const float* x, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (!(v >= lo && v < hi)) return;
  int b = (int)__fmul_rn(__fsub_rn(v, lo), scale);
  if (b > nbins - 1) b = nbins - 1;
  atomicAdd(&counts[b], 1);
}

extern "C" void hist_f32_bins(int n, int nbins, float lo, float hi, const float* x, int* counts,
                              cudaStream_t stream) {
  if (nbins <= 0) return;
  cudaMemsetAsync(counts, 0, (size_t)nbins * sizeof(int), stream);
  if (n <= 0) return;
  const float scale = (float)nbins / (hi - lo);
  const int threads = 256;
  histf_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, nbins, lo, hi, scale, x, counts);
}

// strategy: naive (weak) — each thread owns a contiguous chunk of 64 elements (uncoalesced loads) and does one global float atomicAdd per element
#include <cuda_runtime.h>

constexpr int kChunk = 64;

__global__ void scatter_add_naive_kernel(int n, int m, const int* idx, const float* val, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long start = t * kChunk;
  if (start >= n) return;
  long long end = start + kChunk < n ? start + kChunk : n;
  for (long long i = start; i < end; ++i) {
    int j = idx[i];
    if (j >= 0 && j < m) atomicAdd(&out[j], val[i]);
  }
}

extern "C" void scatter_add_f32(int n, int m, const int* idx, const float* val, float* out,
                                cudaStream_t stream) {
  if (m <= 0) return;
  cudaMemsetAsync(out, 0, (size_t)m * sizeof(float), stream);
  if (n <= 0) return;
  const int threads = 128;
  long long nthreads = ((long long)n + kChunk - 1) / kChunk;
  long long blocks = (nthreads + threads - 1) / threads;
  scatter_add_naive_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(n, m, idx, val, out);
}

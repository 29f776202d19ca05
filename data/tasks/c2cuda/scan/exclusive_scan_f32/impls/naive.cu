// strategy: naive (weak) — Hillis-Steele inclusive scan in global memory (ceil(log2 n) full-array passes, one kernel each) followed by a shift kernel that turns it into the exclusive scan
#include <cuda_runtime.h>

__global__ void hs_pass(int n, int d, const float* src, float* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = src[i];
  if (i >= d) v += src[i - d];
  dst[i] = v;
}

__global__ void shift_kernel(int n, const float* incl, float* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i == 0) ? 0.0f : incl[i - 1];
}

extern "C" void exclusive_scan_f32(int n, const float* x, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  const int blocks = (int)((n + threads - 1) / threads);
  float *a = nullptr, *b = nullptr;
  cudaMallocAsync((void**)&a, sizeof(float) * (size_t)n, stream);
  cudaMallocAsync((void**)&b, sizeof(float) * (size_t)n, stream);
  const float* src = x;
  float* dst = a;
  for (long long d = 1; d < n; d <<= 1) {
    hs_pass<<<blocks, threads, 0, stream>>>(n, (int)d, src, dst);
    src = dst;
    dst = (dst == a) ? b : a;
  }
  shift_kernel<<<blocks, threads, 0, stream>>>(n, src, out);
  cudaFreeAsync(a, stream);
  cudaFreeAsync(b, stream);
}

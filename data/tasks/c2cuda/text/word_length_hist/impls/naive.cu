// strategy: naive (weak) — one thread per byte; a thread at a word start walks forward byte by byte in global memory (at most 64 bytes: lengths are capped) and increments its bin with a global atomicAdd
#include <cuda_runtime.h>

__device__ __forceinline__ bool wl_is_ws(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

__global__ void word_len_naive_kernel(long long n, const unsigned char* text, unsigned int* hist) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (wl_is_ws(text[i])) return;
  if (i > 0 && !wl_is_ws(text[i - 1])) return;
  int len = 1;
  while (len < 64 && i + len < n && !wl_is_ws(text[i + len])) ++len;
  atomicAdd(&hist[len - 1], 1u);
}

extern "C" void word_length_hist(long long n, const unsigned char* text, unsigned int* hist, cudaStream_t stream) {
  cudaMemsetAsync(hist, 0, 64 * sizeof(unsigned int), stream);
  if (n <= 0) return;
  const int threads = 256;
  word_len_naive_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(n, text, hist);
}

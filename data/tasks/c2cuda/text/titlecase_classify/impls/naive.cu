// strategy: naive (weak) — one thread per byte, branchy classification, the previous byte re-read from global memory, byte-wide loads and stores
#include <cuda_runtime.h>

__device__ bool tc_is_letter(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

__global__ void titlecase_naive_kernel(long long n, const unsigned char* text, unsigned char* out,
                                       unsigned char* cls) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned char c = text[i];
  unsigned char o = c, k;
  if (tc_is_letter(c)) {
    const bool start = (i == 0) || !tc_is_letter(text[i - 1]);
    o = start ? (unsigned char)(c & ~0x20) : (unsigned char)(c | 0x20);
  }
  if (c == ' ' || (c >= 9 && c <= 13)) k = 1;
  else if (c < 32 || c == 127) k = 0;
  else if (c >= '0' && c <= '9') k = 2;
  else if (tc_is_letter(c)) k = 3;
  else if (c >= 128) k = 5;
  else k = 4;
  out[i] = o;
  cls[i] = k;
}

extern "C" void titlecase_classify(long long n, const unsigned char* text, unsigned char* out, unsigned char* cls,
                                   cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  titlecase_naive_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(n, text, out, cls);
}

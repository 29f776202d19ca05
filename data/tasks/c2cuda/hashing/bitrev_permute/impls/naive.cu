// strategy: naive (weak) — one thread per source element, reversed index built bit by bit, scattered 4-byte stores (neighbouring threads write n/2 apart, one sector per store)
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void bitrev_naive_kernel(long long total, int logn, const uint32_t* in, uint32_t* out) {
  const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= total) return;
  const long long n = 1LL << logn;
  const long long row = g >> logn, i = g & (n - 1);
  long long j = 0;
  for (int b = 0; b < logn; ++b) j |= ((i >> b) & 1) << (logn - 1 - b);
  out[row * n + j] = in[g];
}

extern "C" void bitrev_permute(int batch, int logn, const uint32_t* in, uint32_t* out, cudaStream_t stream) {
  const long long total = (long long)batch << logn;
  if (total <= 0) return;
  const int threads = 256;
  bitrev_naive_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(total, logn, in, out);
}

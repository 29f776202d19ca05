// strategy: naive (weak) — one thread per output y[b][r] walks its row byte by byte: uncoalesced A reads, and A is re-read once per batch vector
#include <cuda_runtime.h>

__global__ void gemv_i8_naive_kernel(int rows, int k, int batch, const signed char* a, const signed char* x, int* y) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)rows * batch) return;
  int b = (int)(t / rows), r = (int)(t % rows);
  const signed char* ar = a + (size_t)r * k;
  const signed char* xb = x + (size_t)b * k;
  int acc = 0;
  for (int j = 0; j < k; ++j) acc += (int)ar[j] * (int)xb[j];
  y[t] = acc;
}

extern "C" void gemv_i8_batched(int rows, int k, int batch, const signed char* a, const signed char* x, int* y,
                                cudaStream_t stream) {
  long long n = (long long)rows * batch;
  if (n <= 0) return;
  const int threads = 256;
  gemv_i8_naive_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(rows, k, batch, a, x, y);
}

// strategy: naive (weak) — one thread per output element, byte-by-byte dot product straight from global memory; consecutive threads take consecutive rows of A, so the A reads are strided by k and nothing is reused through shared memory
#include <cuda_runtime.h>

__global__ void gemm_i8_naive_kernel(int m, int n, int k, const signed char* a, const signed char* b, int* c) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)m * n) return;
  int i = (int)(t % m), j = (int)(t / m);
  const signed char* ar = a + (size_t)i * k;
  const signed char* br = b + (size_t)j * k;
  int acc = 0;
  for (int p = 0; p < k; ++p) acc += (int)ar[p] * (int)br[p];
  c[(size_t)i * n + j] = acc;
}

extern "C" void gemm_i8_i32(int m, int n, int k, const signed char* a, const signed char* b, int* c,
                            cudaStream_t stream) {
  long long total = (long long)m * n;
  if (total <= 0) return;
  const int threads = 256;
  gemm_i8_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(m, n, k, a, b, c);
}

// strategy: naive (weak) — one thread per sequence runs the quadratic DP f(i) = 1 + max f(j) over earlier smaller x[j], with f kept in global scratch, sequence-major (O(L^2) uncoalesced loads)
#include <cuda_runtime.h>

__global__ void lis_naive_kernel(int B, int L, const int* x, int* f, int* lis) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const int* s = x + (size_t)b * L;
  int* fb = f + (size_t)b * L;
  int best = 0;
  for (int i = 0; i < L; ++i) {
    int v = 1;
    const int xi = s[i];
    for (int j = 0; j < i; ++j)
      if (s[j] < xi && fb[j] + 1 > v) v = fb[j] + 1;
    fb[i] = v;
    best = max(best, v);
  }
  lis[b] = best;
}

extern "C" void lis_batch(int B, int L, const int* x, int* lis, cudaStream_t stream) {
  if (B <= 0) return;
  int* f = nullptr;
  cudaMallocAsync((void**)&f, sizeof(int) * (size_t)B * (size_t)(L > 0 ? L : 1), stream);
  const int threads = 128;
  lis_naive_kernel<<<(B + threads - 1) / threads, threads, 0, stream>>>(B, L, x, f, lis);
  cudaFreeAsync(f, stream);
}

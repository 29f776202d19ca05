// strategy: patience_thread — one thread per sequence runs O(L log L) patience sorting (binary search for the first tail >= x) with its tails array in global scratch stored interleaved (tails[k*B + b]) so that a warp's probes of the same depth share cache lines
#include <cuda_runtime.h>

__global__ void lis_patience_kernel(int B, int L, const int* __restrict__ x, int* __restrict__ tails, int* __restrict__ lis) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const int* s = x + (size_t)b * L;
  int len = 0;
  int last = 0;  // tails[len-1] cached in a register: most elements either extend or land below it
  for (int i = 0; i < L; ++i) {
    const int v = __ldg(s + i);
    if (len == 0 || v > last) {
      tails[(size_t)len * B + b] = v;
      last = v;
      ++len;
      continue;
    }
    int lo = 0, hi = len - 1;  // tails[len-1] >= v, so the answer lies in [0, len-1]
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      if (tails[(size_t)mid * B + b] < v) lo = mid + 1;
      else hi = mid;
    }
    tails[(size_t)lo * B + b] = v;
    if (lo == len - 1) last = v;
  }
  lis[b] = len;
}

extern "C" void lis_batch(int B, int L, const int* x, int* lis, cudaStream_t stream) {
  if (B <= 0) return;
  int* tails = nullptr;
  cudaMallocAsync((void**)&tails, sizeof(int) * (size_t)B * (size_t)(L > 0 ? L : 1), stream);
  const int threads = 128;
  lis_patience_kernel<<<(B + threads - 1) / threads, threads, 0, stream>>>(B, L, x, tails, lis);
  cudaFreeAsync(tails, stream);
}

// strategy: vectorized — still one launch per item, but each thread owns 4 consecutive capacities: an aligned int4 load/store of the row plus read-only-cache loads of the shifted sources (4x fewer threads, 16-byte transactions)
#include <cuda_runtime.h>

__global__ void knapsack_vec_kernel(int W, int k, const int* __restrict__ wt, const int* __restrict__ val,
                                    const int* __restrict__ cur, int* __restrict__ next) {
  const long long w0 = 4LL * (blockIdx.x * (long long)blockDim.x + threadIdx.x);
  if (w0 > W) return;
  const int c = __ldg(wt + k);
  const int v = __ldg(val + k);
  if (w0 + 3 <= W) {
    int4 x = *reinterpret_cast<const int4*>(cur + w0);
    const long long s = w0 - c;
    if (s >= 0) {
      x.x = max(x.x, __ldg(cur + s) + v);
      x.y = max(x.y, __ldg(cur + s + 1) + v);
      x.z = max(x.z, __ldg(cur + s + 2) + v);
      x.w = max(x.w, __ldg(cur + s + 3) + v);
    } else {
      if (s + 1 >= 0) x.y = max(x.y, __ldg(cur + s + 1) + v);
      if (s + 2 >= 0) x.z = max(x.z, __ldg(cur + s + 2) + v);
      if (s + 3 >= 0) x.w = max(x.w, __ldg(cur + s + 3) + v);
    }
    *reinterpret_cast<int4*>(next + w0) = x;
  } else {
    for (long long w = w0; w <= W; ++w) {
      int x = cur[w];
      if (w >= c) x = max(x, __ldg(cur + w - c) + v);
      next[w] = x;
    }
  }
}

extern "C" void knapsack_01(int N, int W, const int* wt, const int* val, int* dp, cudaStream_t stream) {
  if (W < 0) return;
  int* tmp = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(int) * ((size_t)W + 4), stream);
  int* x = (N % 2 == 0) ? dp : tmp;
  int* y = (N % 2 == 0) ? tmp : dp;
  cudaMemsetAsync(x, 0, sizeof(int) * ((size_t)W + 1), stream);
  const int threads = 256;
  const long long quads = ((long long)W + 1 + 3) / 4;
  const int blocks = (int)((quads + threads - 1) / threads);
  for (int k = 0; k < N; ++k) {
    knapsack_vec_kernel<<<blocks, threads, 0, stream>>>(W, k, wt, val, x, y);
    int* t = x;
    x = y;
    y = t;
  }
  cudaFreeAsync(tmp, stream);
}

// strategy: eytzinger — a first kernel re-lays the sorted array into breadth-first (Eytzinger) order in scratch, so the hot top levels of every search share a few cache lines; the search is then a branch-free descent k = 2k + (e[k] < x) and the in-order rank of the final node is recovered arithmetically
#include <cuda_runtime.h>

namespace {

// In-order rank (0-based) of node k (1-based, breadth-first) in the complete binary tree of n nodes
// whose last level (depth h = floor(log2 n)) holds L = n - 2^h + 1 left-aligned nodes.
__device__ __forceinline__ long long inorder_rank(long long k, int h, long long L) {
  const int d = 63 - __clzll(k);
  const long long j = k - (1LL << d);
  if (d == h) return 2 * j;
  // in the perfect tree of height h the node sits at (2j+1)*2^(h-d)-1; subtract the absent
  // last-level slots that lie to its left
  const long long slots_left = (2 * j + 1) << (h - d - 1);
  const long long ip = ((2 * j + 1) << (h - d)) - 1;
  const long long present = slots_left < L ? slots_left : L;
  return ip - (slots_left - present);
}

__global__ void build_eytzinger(int n, int h, long long L, const float* __restrict__ a, float* __restrict__ e) {
  const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k > n) return;
  e[k] = (k == 0) ? 0.0f : __ldg(a + inorder_rank(k, h, L));
}

__global__ void search_eytzinger(int n, int m, int h, long long L, const float* __restrict__ e,
                                 const float* __restrict__ q, int* __restrict__ out) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float x = __ldcs(q + i);
  long long k = 1;
  while (k <= n) k = 2 * k + (__ldg(e + k) < x ? 1 : 0);
  // drop the trailing "went right" steps and the last "went left" one: k is the lower-bound node
  k >>= __ffsll(~k);
  __stcs(out + i, k == 0 ? n : (int)inorder_rank(k, h, L));
}

}  // namespace

extern "C" void searchsorted_f32(int n, int m, const float* a, const float* q, int* out, cudaStream_t stream) {
  if (m <= 0) return;
  if (n <= 0) {
    cudaMemsetAsync(out, 0, sizeof(int) * (size_t)m, stream);
    return;
  }
  int h = 0;
  while ((2LL << h) <= n) ++h;  // h = floor(log2 n)
  const long long L = (long long)n - (1LL << h) + 1;
  float* e = nullptr;
  cudaMallocAsync((void**)&e, sizeof(float) * ((size_t)n + 1), stream);
  const int t = 256;
  build_eytzinger<<<(unsigned)(((long long)n + 1 + t - 1) / t), t, 0, stream>>>(n, h, L, a, e);
  search_eytzinger<<<(unsigned)(((long long)m + t - 1) / t), t, 0, stream>>>(n, m, h, L, e, q, out);
  cudaFreeAsync(e, stream);
}

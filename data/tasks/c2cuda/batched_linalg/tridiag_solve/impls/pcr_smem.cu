// strategy: pcr_smem — parallel cyclic reduction: one block per system, one thread per row; each of the ceil(log2 n) steps eliminates the couplings at distance s through shared memory until every row is decoupled, x = d/b (O(n log n) work, fully parallel, coalesced loads)
#include <cuda_runtime.h>

namespace {

__global__ void __launch_bounds__(1024) tridiag_pcr_kernel(int n, const float* __restrict__ a, const float* __restrict__ b,
                                                          const float* __restrict__ c, const float* __restrict__ d,
                                                          float* __restrict__ x) {
  extern __shared__ float sm[];
  float* sa = sm;
  float* sb = sm + n;
  float* sc = sm + 2 * n;
  float* sd = sm + 3 * n;
  const long long o = (long long)blockIdx.x * n;
  const int i = threadIdx.x;
  const bool row = i < n;
  float ai = 0.0f, bi = 1.0f, ci = 0.0f, di = 0.0f;
  if (row) {
    ai = i > 0 ? __ldcs(a + o + i) : 0.0f;
    bi = __ldcs(b + o + i);
    ci = i < n - 1 ? __ldcs(c + o + i) : 0.0f;
    di = __ldcs(d + o + i);
  }
  for (int s = 1; s < n; s <<= 1) {
    if (row) {
      sa[i] = ai;
      sb[i] = bi;
      sc[i] = ci;
      sd[i] = di;
    }
    __syncthreads();
    if (row) {
      const int lo = i - s, hi = i + s;
      float na = 0.0f, nc = 0.0f, nb = bi, nd = di;
      if (lo >= 0) {
        const float alpha = -ai / sb[lo];
        na = alpha * sa[lo];
        nb += alpha * sc[lo];
        nd += alpha * sd[lo];
      }
      if (hi < n) {
        const float gamma = -ci / sb[hi];
        nc = gamma * sc[hi];
        nb += gamma * sa[hi];
        nd += gamma * sd[hi];
      }
      ai = na;
      bi = nb;
      ci = nc;
      di = nd;
    }
    __syncthreads();  // everyone has read the step's values before they are overwritten
  }
  if (row) __stcs(x + o + i, di / bi);
}

}  // namespace

extern "C" void tridiag_solve(int batch, int n, const float* a, const float* b, const float* c, const float* d, float* x,
                              cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  const int threads = ((n + 31) / 32) * 32;
  tridiag_pcr_kernel<<<(unsigned int)batch, threads, sizeof(float) * 4 * (size_t)n, stream>>>(n, a, b, c, d, x);
}

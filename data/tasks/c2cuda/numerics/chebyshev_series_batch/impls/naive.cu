// strategy: naive (weak) — one thread per output with the series index varying fastest across the warp: every lane reads its own coefficient row from global memory (stride deg+1) and the stores are npts apart; float Clenshaw
#include <cuda_runtime.h>

__global__ void cheb_naive_kernel(int nser, int npts, int deg, const float* coef, const float* x, float* out) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)nser * npts) return;
  const int s = (int)(idx % nser);
  const int p = (int)(idx / nser);
  const float* c = coef + (long long)s * (deg + 1);
  const float xv = x[p];
  float b1 = 0.0f, b2 = 0.0f;
  for (int k = deg; k >= 1; --k) {
    const float t = 2.0f * xv * b1 - b2 + c[k];
    b2 = b1;
    b1 = t;
  }
  out[(long long)s * npts + p] = xv * b1 - b2 + c[0];
}

extern "C" void chebyshev_series_batch(int nser, int npts, int deg, const float* coef, const float* x, float* out,
                                       cudaStream_t stream) {
  const long long total = (long long)nser * npts;
  if (total <= 0) return;
  const int threads = 256;
  cheb_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(nser, npts, deg, coef, x,
                                                                                             out);
}

// strategy: grid_stride — coalesced grid-stride loop over options, one option per thread per iteration, normcdf for the four tail probabilities
#include <cuda_runtime.h>

namespace {
__global__ void bs64_grid(int n, double r, double q, const double* __restrict__ S,
                          const double* __restrict__ K, const double* __restrict__ T,
                          const double* __restrict__ sigma, double* __restrict__ call,
                          double* __restrict__ put) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const double s = __ldg(S + i), k = __ldg(K + i), t = __ldg(T + i), v = __ldg(sigma + i);
    const double vs = v * sqrt(t);
    const double d1 = fma(r - q + 0.5 * v * v, t, log(s / k)) / vs;
    const double d2 = d1 - vs;
    const double sd = s * exp(-q * t);
    const double kd = k * exp(-r * t);
    call[i] = sd * normcdf(d1) - kd * normcdf(d2);
    put[i] = kd * normcdf(-d2) - sd * normcdf(-d1);
  }
}
}  // namespace

extern "C" void black_scholes_f64(int n, double r, double q, const double* S, const double* K,
                                  const double* T, const double* sigma, double* call,
                                  double* put, cudaStream_t stream) {
  if (n <= 0) return;
  const int block = 256;
  long long blocks = ((long long)n + block - 1) / block;
  if (blocks > 132LL * 16) blocks = 132LL * 16;
  bs64_grid<<<(int)blocks, block, 0, stream>>>(n, r, q, S, K, T, sigma, call, put);
}

// strategy: naive (weak) — each thread prices a contiguous run of 32 options (uncoalesced), 64-thread blocks, straightforward double math
#include <cuda_runtime.h>

namespace {
constexpr int kRun = 32;

__device__ double ncdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

__global__ void bs64_naive(int n, double r, double q, const double* S, const double* K,
                           const double* T, const double* sigma, double* call, double* put) {
  const long long t0 = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * kRun;
  for (long long i = t0; i < t0 + kRun && i < n; ++i) {
    const double s = S[i], k = K[i], t = T[i], v = sigma[i];
    const double vs = v * sqrt(t);
    const double d1 = (log(s / k) + (r - q + 0.5 * v * v) * t) / vs;
    const double d2 = d1 - vs;
    const double sd = s * exp(-q * t);
    const double kd = k * exp(-r * t);
    call[i] = sd * ncdf(d1) - kd * ncdf(d2);
    put[i] = kd * ncdf(-d2) - sd * ncdf(-d1);
  }
}
}  // namespace

extern "C" void black_scholes_f64(int n, double r, double q, const double* S, const double* K,
                                  const double* T, const double* sigma, double* call,
                                  double* put, cudaStream_t stream) {
  if (n <= 0) return;
  const long long runs = (n + kRun - 1) / kRun;
  const int block = 64;
  bs64_naive<<<(int)((runs + block - 1) / block), block, 0, stream>>>(n, r, q, S, K, T, sigma,
                                                                     call, put);
}

// strategy: naive (weak) — one thread per option walks its whole tree serially in a global scratch row (option-major, so a warp's accesses are N+1 doubles apart), exp() at every node
#include <cuda_runtime.h>

namespace {
__global__ void binom_naive(int n_opt, int N, double r, const double* S, const double* K,
                            const double* T, const double* sigma, double* scratch,
                            double* price) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= n_opt) return;
  double* V = scratch + (size_t)o * (N + 1);
  const double s = S[o], k = K[o];
  const double dt = T[o] / N;
  const double a = sigma[o] * sqrt(dt);
  const double pu = (exp(r * dt) - exp(-a)) / (exp(a) - exp(-a));
  const double pd = 1.0 - pu;
  const double disc = exp(-r * dt);
  for (int j = 0; j <= N; ++j) V[j] = fmax(k - s * exp(a * (double)(2 * j - N)), 0.0);
  for (int i = N - 1; i >= 0; --i) {
    for (int j = 0; j <= i; ++j) {
      const double cont = disc * (pu * V[j + 1] + pd * V[j]);
      const double ex = k - s * exp(a * (double)(2 * j - i));
      V[j] = fmax(cont, ex);
    }
  }
  price[o] = V[0];
}
}  // namespace

extern "C" void binomial_american(int n_opt, int steps, double r, const double* S,
                                  const double* K, const double* T, const double* sigma,
                                  double* price, cudaStream_t stream) {
  if (n_opt <= 0) return;
  double* scratch = nullptr;
  cudaMallocAsync(&scratch, sizeof(double) * (size_t)n_opt * ((size_t)steps + 1), stream);
  binom_naive<<<(n_opt + 63) / 64, 64, 0, stream>>>(n_opt, steps, r, S, K, T, sigma, scratch,
                                                    price);
  cudaFreeAsync(scratch, stream);
}

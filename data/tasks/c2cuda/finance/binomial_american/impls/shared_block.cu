// strategy: shared_block — one 256-thread block per option; the two tree levels (ping-pong) and a table of the 2N+1 node spots live in shared memory (global scratch when N is too large), one __syncthreads per level
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;

// layout per option: V0[N+1], V1[N+1], E[2N+1] with E[q] = S * exp(a * (q - N))
__global__ void __launch_bounds__(kThreads)
binom_smem(int N, double r, const double* __restrict__ S, const double* __restrict__ K,
           const double* __restrict__ T, const double* __restrict__ sigma,
           double* __restrict__ gscratch, bool use_shared, double* __restrict__ price) {
  extern __shared__ double sh[];
  const int o = blockIdx.x;
  double* base = use_shared ? sh : gscratch + (size_t)o * (4 * (size_t)N + 3);
  double* cur = base;
  double* nxt = base + (N + 1);
  double* E = base + 2 * (N + 1);
  const double s = S[o], k = K[o];
  const double dt = T[o] / N;
  const double a = sigma[o] * sqrt(dt);
  const double pu = (exp(r * dt) - exp(-a)) / (exp(a) - exp(-a));
  const double pd = 1.0 - pu;
  const double disc = exp(-r * dt);
  for (int q = threadIdx.x; q <= 2 * N; q += kThreads) E[q] = s * exp(a * (double)(q - N));
  __syncthreads();
  for (int j = threadIdx.x; j <= N; j += kThreads) cur[j] = fmax(k - E[2 * j], 0.0);
  __syncthreads();
  for (int i = N - 1; i >= 0; --i) {
    const double* ei = E + (N - i);  // ei[2j] = S * exp(a * (2j - i))
    for (int j = threadIdx.x; j <= i; j += kThreads) {
      const double cont = disc * (pu * cur[j + 1] + pd * cur[j]);
      nxt[j] = fmax(cont, k - ei[2 * j]);
    }
    __syncthreads();
    double* t = cur;
    cur = nxt;
    nxt = t;
  }
  if (threadIdx.x == 0) price[o] = cur[0];
}
}  // namespace

extern "C" void binomial_american(int n_opt, int steps, double r, const double* S,
                                  const double* K, const double* T, const double* sigma,
                                  double* price, cudaStream_t stream) {
  if (n_opt <= 0) return;
  const int N = steps;
  const size_t per_opt = sizeof(double) * (4 * (size_t)N + 3);
  int dev = 0;
  cudaGetDevice(&dev);
  int max_optin = 0;
  cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  const bool use_shared = per_opt <= (size_t)max_optin;
  double* gscratch = nullptr;
  size_t shmem = 0;
  if (use_shared) {
    shmem = per_opt;
    cudaFuncSetAttribute(binom_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem);
  } else {
    cudaMallocAsync(&gscratch, per_opt * (size_t)n_opt, stream);
  }
  binom_smem<<<n_opt, kThreads, shmem, stream>>>(N, r, S, K, T, sigma, gscratch, use_shared,
                                                 price);
  if (gscratch) cudaFreeAsync(gscratch, stream);
}

// strategy: register_chunks — one 256-thread block per option, each thread keeps R consecutive tree nodes (values and spots) in registers; per level only each thread's first node crosses to its left neighbour through a double-buffered shared array (one __syncthreads per level); spots advance by one multiply by u
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;

template <int R>
__global__ void __launch_bounds__(kThreads)
binom_regs(int N, double r, const double* __restrict__ S, const double* __restrict__ K,
           const double* __restrict__ T, const double* __restrict__ sigma,
           double* __restrict__ price) {
  __shared__ double firsts[2][kThreads + 1];
  const int o = blockIdx.x;
  const double s = S[o], k = K[o];
  const double dt = T[o] / N;
  const double a = sigma[o] * sqrt(dt);
  const double u = exp(a);
  const double pu = (exp(r * dt) - exp(-a)) / (u - exp(-a));
  const double pd = 1.0 - pu;
  const double disc = exp(-r * dt);
  const int j0 = threadIdx.x * R;
  double val[R], spot[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int j = j0 + q;
    if (j <= N) {
      spot[q] = s * exp(a * (double)(2 * j - N));
      val[q] = fmax(k - spot[q], 0.0);
    } else {
      spot[q] = 0.0;
      val[q] = 0.0;
    }
  }
  if (threadIdx.x == 0) {
    firsts[0][kThreads] = 0.0;
    firsts[1][kThreads] = 0.0;
  }
  for (int i = N - 1; i >= 0; --i) {
    double* buf = firsts[i & 1];
    buf[threadIdx.x] = val[0];
    __syncthreads();
    const double right = buf[threadIdx.x + 1];  // first node of the next thread (old level)
    if (j0 <= i) {
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const double up = (q + 1 < R) ? val[q + 1] : right;
        spot[q] *= u;  // level i+1 -> level i: exponent 2j-(i+1) -> 2j-i
        if (j0 + q <= i) val[q] = fmax(disc * (pu * up + pd * val[q]), k - spot[q]);
      }
    }
  }
  if (threadIdx.x == 0) price[o] = val[0];
}

// fallback for trees wider than kThreads * 32 nodes: block-cooperative levels in global scratch
__global__ void __launch_bounds__(kThreads)
binom_global(int N, double r, const double* __restrict__ S, const double* __restrict__ K,
             const double* __restrict__ T, const double* __restrict__ sigma,
             double* __restrict__ scratch, double* __restrict__ price) {
  const int o = blockIdx.x;
  double* cur = scratch + (size_t)o * 2 * ((size_t)N + 1);
  double* nxt = cur + (N + 1);
  const double s = S[o], k = K[o];
  const double dt = T[o] / N;
  const double a = sigma[o] * sqrt(dt);
  const double pu = (exp(r * dt) - exp(-a)) / (exp(a) - exp(-a));
  const double pd = 1.0 - pu;
  const double disc = exp(-r * dt);
  for (int j = threadIdx.x; j <= N; j += kThreads)
    cur[j] = fmax(k - s * exp(a * (double)(2 * j - N)), 0.0);
  __syncthreads();
  for (int i = N - 1; i >= 0; --i) {
    for (int j = threadIdx.x; j <= i; j += kThreads)
      nxt[j] = fmax(disc * (pu * cur[j + 1] + pd * cur[j]), k - s * exp(a * (double)(2 * j - i)));
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
  const long long nodes = (long long)N + 1;
  if (nodes <= kThreads * 1) binom_regs<1><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 2) binom_regs<2><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 4) binom_regs<4><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 8) binom_regs<8><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 12) binom_regs<12><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 16) binom_regs<16><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 24) binom_regs<24><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else if (nodes <= kThreads * 32) binom_regs<32><<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, price);
  else {
    double* scratch = nullptr;
    cudaMallocAsync(&scratch, sizeof(double) * 2 * (size_t)nodes * n_opt, stream);
    binom_global<<<n_opt, kThreads, 0, stream>>>(N, r, S, K, T, sigma, scratch, price);
    cudaFreeAsync(scratch, stream);
  }
}

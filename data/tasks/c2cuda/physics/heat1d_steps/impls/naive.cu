// strategy: naive (weak) — one launch per time step, each thread walks its own contiguous chunk of 64 points (uncoalesced), ping-pong through a scratch buffer
#include <cuda_runtime.h>

namespace {
constexpr int kChunk = 64;

__global__ void heat_copy_naive(int n, const double* src, double* dst) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long lo = t * kChunk;
  for (long long i = lo; i < lo + kChunk && i < n; ++i) dst[i] = src[i];
}

__global__ void heat_step_naive(int n, double r, const double* a, double* b) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long lo = t * kChunk;
  for (long long i = lo; i < lo + kChunk && i < n; ++i) {
    if (i == 0 || i == n - 1)
      b[i] = a[i];
    else
      b[i] = a[i] + r * (a[i - 1] - 2.0 * a[i] + a[i + 1]);
  }
}
}  // namespace

extern "C" void heat1d_steps(int n, int k, double r, const double* u0, double* u,
                             cudaStream_t stream) {
  if (n <= 0) return;
  const int block = 64;
  const long long chunks = (n + kChunk - 1) / kChunk;
  const int grid = (int)((chunks + block - 1) / block);
  if (k <= 0) {
    heat_copy_naive<<<grid, block, 0, stream>>>(n, u0, u);
    return;
  }
  double* tmp = nullptr;
  if (k > 1) cudaMallocAsync(&tmp, (size_t)n * sizeof(double), stream);
  // choose the first destination so that the k-th step lands in u
  const double* src = u0;
  double* dst = (k % 2 == 1) ? u : tmp;
  for (int s = 0; s < k; ++s) {
    heat_step_naive<<<grid, block, 0, stream>>>(n, r, src, dst);
    src = dst;
    dst = (dst == u) ? tmp : u;
  }
  if (tmp) cudaFreeAsync(tmp, stream);
}

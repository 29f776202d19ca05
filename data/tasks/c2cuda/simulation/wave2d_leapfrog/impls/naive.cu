// strategy: naive (weak) — one launch per time level, one thread per cell with consecutive threads walking down a column (strided, uncoalesced), all five stencil reads and the older level straight from global memory
#include <cuda_runtime.h>

namespace {
__global__ void wave_step_naive(int n, int m, float c2, const float* p, const float* c, float* q) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)n * m) return;
  const int i = (int)(t % n);
  const int j = (int)(t / n);
  const long long x = (long long)i * m + j;
  if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
    q[x] = c[x];
    return;
  }
  const float cc = c[x];
  const float lap = (c[x - m] + c[x + m]) + (c[x - 1] + c[x + 1]) - 4.0f * cc;
  q[x] = 2.0f * cc - p[x] + c2 * lap;
}

__global__ void wave_copy_naive(long long total, const float* src, float* dst) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < total) dst[t] = src[t];
}
}  // namespace

extern "C" void wave2d_leapfrog(int n, int m, int k, float c2, const float* u_prev,
                                const float* u_cur, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const long long total = (long long)n * m;
  const int block = 128;
  const int grid = (int)((total + block - 1) / block);
  if (k <= 0) {
    wave_copy_naive<<<grid, block, 0, stream>>>(total, u_cur, out);
    return;
  }
  float* scratch = nullptr;
  if (k >= 2) cudaMallocAsync(&scratch, (size_t)total * 2 * sizeof(float), stream);
  // level j (1..k) lives in lev[j % 3]; level k must be out
  float* lev[3];
  lev[k % 3] = out;
  lev[(k + 1) % 3] = scratch;
  lev[(k + 2) % 3] = scratch ? scratch + total : nullptr;
  for (int j = 1; j <= k; ++j) {
    const float* p = (j == 1) ? u_prev : (j == 2) ? u_cur : lev[(j - 2) % 3];
    const float* c = (j == 1) ? u_cur : lev[(j - 1) % 3];
    wave_step_naive<<<grid, block, 0, stream>>>(n, m, c2, p, c, lev[j % 3]);
  }
  if (scratch) cudaFreeAsync(scratch, stream);
}

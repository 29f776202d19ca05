// strategy: push_coalesced — one fused collide-and-push launch per step over a 2-D grid of row segments: consecutive threads own consecutive cells of a row, so the 9 plane reads are perfectly coalesced and each plane's writes are a row segment shifted by at most one cell
#include <cuda_runtime.h>

namespace {
constexpr int kBX = 128;

__global__ void __launch_bounds__(kBX)
lbm_collide_push(int n, int m, float omega, const float* __restrict__ a, float* __restrict__ b) {
  const int j = blockIdx.x * kBX + threadIdx.x;
  const int i = blockIdx.y;
  if (j >= m) return;
  const long long plane = (long long)n * m;
  const long long x = (long long)i * m + j;
  const float f0 = a[x], f1 = a[plane + x], f2 = a[2 * plane + x], f3 = a[3 * plane + x];
  const float f4 = a[4 * plane + x], f5 = a[5 * plane + x], f6 = a[6 * plane + x];
  const float f7 = a[7 * plane + x], f8 = a[8 * plane + x];
  const float rho = ((((((((f0 + f1) + f2) + f3) + f4) + f5) + f6) + f7) + f8);
  const float ux = (((((f1 - f3) + f5) - f6) - f7) + f8) / rho;
  const float uy = (((((f2 - f4) + f5) + f6) - f7) - f8) / rho;
  const float base = 1.0f - 1.5f * (ux * ux + uy * uy);
  const float r0 = (4.0f / 9.0f) * rho, r1 = (1.0f / 9.0f) * rho, r2 = (1.0f / 36.0f) * rho;
  const int iu = (i + 1 == n) ? 0 : i + 1;   // row i + 1
  const int id = (i == 0) ? n - 1 : i - 1;   // row i - 1
  const int jr = (j + 1 == m) ? 0 : j + 1;
  const int jl = (j == 0) ? m - 1 : j - 1;
  const long long ru = (long long)iu * m, rc = (long long)i * m, rd = (long long)id * m;
  // equilibrium 1 + 3cu + 4.5cu^2 - 1.5usq, with cu = +-ux, +-uy, +-(ux+uy), +-(ux-uy)
#define LBM_EQ(cu) (base + 3.0f * (cu) + 4.5f * (cu) * (cu))
  b[rc + j] = f0 - omega * (f0 - r0 * base);
  b[plane + rc + jr] = f1 - omega * (f1 - r1 * LBM_EQ(ux));
  b[2 * plane + ru + j] = f2 - omega * (f2 - r1 * LBM_EQ(uy));
  b[3 * plane + rc + jl] = f3 - omega * (f3 - r1 * LBM_EQ(-ux));
  b[4 * plane + rd + j] = f4 - omega * (f4 - r1 * LBM_EQ(-uy));
  b[5 * plane + ru + jr] = f5 - omega * (f5 - r2 * LBM_EQ(ux + uy));
  b[6 * plane + ru + jl] = f6 - omega * (f6 - r2 * LBM_EQ(uy - ux));
  b[7 * plane + rd + jl] = f7 - omega * (f7 - r2 * LBM_EQ(-ux - uy));
  b[8 * plane + rd + jr] = f8 - omega * (f8 - r2 * LBM_EQ(ux - uy));
#undef LBM_EQ
}

__global__ void lbm_copy_push(long long total, const float* __restrict__ src,
                              float* __restrict__ dst) {
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x)
    dst[t] = src[t];
}
}  // namespace

extern "C" void lbm_d2q9(int n, int m, int k, float omega, const float* f_in, float* f_out,
                         cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const long long plane = (long long)n * m;
  if (k <= 0) {
    lbm_copy_push<<<1024, 256, 0, stream>>>(9 * plane, f_in, f_out);
    return;
  }
  float* tmp = nullptr;
  if (k > 1) cudaMallocAsync(&tmp, (size_t)(9 * plane) * sizeof(float), stream);
  const dim3 grid((m + kBX - 1) / kBX, n);
  const float* src = f_in;
  float* dst = (k % 2 == 1) ? f_out : tmp;
  for (int s = 0; s < k; ++s) {
    lbm_collide_push<<<grid, kBX, 0, stream>>>(n, m, omega, src, dst);
    src = dst;
    dst = (dst == f_out) ? tmp : f_out;
  }
  if (tmp) cudaFreeAsync(tmp, stream);
}

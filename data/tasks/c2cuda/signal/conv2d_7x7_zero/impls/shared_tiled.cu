// strategy: shared_tiled — 32x32 output tile per 32x8 block (4 rows per thread), the zero-padded 38x38 input tile and the 49 weights staged in shared memory, all taps read from shared memory
#include <cuda_runtime.h>

namespace {

constexpr int kTW = 32, kTH = 32, kTY = 8, kR = 3;

__global__ void __launch_bounds__(kTW * kTY) conv7_shared_kernel(int n, int m, const float* __restrict__ k,
                                                                  const float* __restrict__ in,
                                                                  float* __restrict__ out) {
  __shared__ float tile[kTH + 2 * kR][kTW + 2 * kR];
  __shared__ float ws[49];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * kTW + tx;
  if (tid < 49) ws[tid] = __ldg(k + tid);
  const int i0 = blockIdx.y * kTH, j0 = blockIdx.x * kTW;
  for (int e = tid; e < (kTH + 2 * kR) * (kTW + 2 * kR); e += kTW * kTY) {
    const int r = e / (kTW + 2 * kR), c = e % (kTW + 2 * kR);
    const int gi = i0 - kR + r, gj = j0 - kR + c;
    tile[r][c] = (gi >= 0 && gi < n && gj >= 0 && gj < m) ? __ldg(in + (long long)gi * m + gj) : 0.0f;
  }
  __syncthreads();
  const int j = j0 + tx;
#pragma unroll
  for (int q = 0; q < kTH / kTY; ++q) {
    const int rl = ty + q * kTY;
    float s = 0.0f;
#pragma unroll
    for (int u = 0; u < 7; ++u)
#pragma unroll
      for (int v = 0; v < 7; ++v) s = fmaf(ws[u * 7 + v], tile[rl + u][tx + v], s);
    const int i = i0 + rl;
    if (i < n && j < m) out[(long long)i * m + j] = s;
  }
}

}  // namespace

extern "C" void conv2d_7x7_zero(int n, int m, const float* k, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(kTW, kTY);
  dim3 grid((m + kTW - 1) / kTW, (n + kTH - 1) / kTH);
  conv7_shared_kernel<<<grid, block, 0, stream>>>(n, m, k, in, out);
}

// strategy: register_rowreuse — 49 weights held in registers; each thread owns 8 consecutive output rows of one column of a 32x64 tile, loads each of its 14 input rows' 7-wide window from shared memory once and scatters it into every output row it touches (12 shared loads per output instead of 49)
#include <cuda_runtime.h>

namespace {

constexpr int kTW = 32, kTY = 8, kRows = 8, kTH = kTY * kRows, kR = 3;

__global__ void __launch_bounds__(kTW * kTY) conv7_rowreuse_kernel(int n, int m, const float* __restrict__ k,
                                                                    const float* __restrict__ in,
                                                                    float* __restrict__ out) {
  __shared__ float tile[kTH + 2 * kR][kTW + 2 * kR];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * kTW + tx;
  float w[49];
#pragma unroll
  for (int e = 0; e < 49; ++e) w[e] = __ldg(k + e);
  const int i0 = blockIdx.y * kTH, j0 = blockIdx.x * kTW;
  for (int e = tid; e < (kTH + 2 * kR) * (kTW + 2 * kR); e += kTW * kTY) {
    const int r = e / (kTW + 2 * kR), c = e % (kTW + 2 * kR);
    const int gi = i0 - kR + r, gj = j0 - kR + c;
    tile[r][c] = (gi >= 0 && gi < n && gj >= 0 && gj < m) ? __ldg(in + (long long)gi * m + gj) : 0.0f;
  }
  __syncthreads();
  // output row o (0..7) of this thread is tile row base+o+3; it uses tile rows base+o .. base+o+6
  const int base = ty * kRows;
  float acc[kRows];
#pragma unroll
  for (int o = 0; o < kRows; ++o) acc[o] = 0.0f;
#pragma unroll
  for (int rr = 0; rr < kRows + 6; ++rr) {
    float xv[7];
#pragma unroll
    for (int v = 0; v < 7; ++v) xv[v] = tile[base + rr][tx + v];
#pragma unroll
    for (int o = 0; o < kRows; ++o) {
      const int u = rr - o;  // compile-time after unrolling
      if (u >= 0 && u < 7) {
#pragma unroll
        for (int v = 0; v < 7; ++v) acc[o] = fmaf(w[u * 7 + v], xv[v], acc[o]);
      }
    }
  }
  const int j = j0 + tx;
  if (j < m) {
#pragma unroll
    for (int o = 0; o < kRows; ++o) {
      const int i = i0 + base + o;
      if (i < n) out[(long long)i * m + j] = acc[o];
    }
  }
}

}  // namespace

extern "C" void conv2d_7x7_zero(int n, int m, const float* k, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(kTW, kTY);
  dim3 grid((m + kTW - 1) / kTW, (n + kTH - 1) / kTH);
  conv7_rowreuse_kernel<<<grid, block, 0, stream>>>(n, m, k, in, out);
}

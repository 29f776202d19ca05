// strategy: register_marching — each thread owns one column of a 32-row strip and marches down it keeping N/C/S in registers; W/E come from warp shuffles, only warp-edge lanes load them
#include <cuda_runtime.h>

#define BX 32     // one warp wide
#define WARPS 4   // warps per block, stacked horizontally (4 x 32 columns)
#define STRIP 32  // rows per thread

__global__ void __launch_bounds__(BX * WARPS) jacobi2d_march_kernel(int n, int m, float w, const float* __restrict__ in,
                                                                     float* __restrict__ out) {
  const int lane = threadIdx.x;
  const int j = (blockIdx.x * WARPS + threadIdx.y) * BX + lane;
  const int i0 = blockIdx.y * STRIP;
  const int i1 = min(i0 + STRIP, n);
  const bool col_ok = j < m;
  const int jc = min(j, m - 1);  // clamped column so out-of-range lanes still feed shuffles safely
  const int jl = max(jc - 1, 0), jr = min(jc + 1, m - 1);
  // rolling registers: up = row i-1, cur = row i
  float up = __ldg(in + (long long)max(i0 - 1, 0) * m + jc);
  float cur = __ldg(in + (long long)i0 * m + jc);
  for (int i = i0; i < i1; ++i) {  // trip count uniform across the warp
    float down = __ldg(in + (long long)min(i + 1, n - 1) * m + jc);
    float west = __shfl_up_sync(0xffffffffu, cur, 1);
    float east = __shfl_down_sync(0xffffffffu, cur, 1);
    if (lane == 0) west = __ldg(in + (long long)i * m + jl);
    if (lane == 31 || j + 1 >= m) east = __ldg(in + (long long)i * m + jr);
    if (col_ok) {
      long long k = (long long)i * m + j;
      if (i == 0 || j == 0 || i == n - 1 || j == m - 1) out[k] = cur;
      else out[k] = w * (((up + down) + west) + east);
    }
    up = cur;
    cur = down;
  }
}

extern "C" void jacobi2d_5pt(int n, int m, float w, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(BX, WARPS);
  dim3 grid((m + BX * WARPS - 1) / (BX * WARPS), (n + STRIP - 1) / STRIP);
  jacobi2d_march_kernel<<<grid, block, 0, stream>>>(n, m, w, in, out);
}

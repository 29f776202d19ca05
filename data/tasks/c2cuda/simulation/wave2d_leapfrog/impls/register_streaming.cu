// strategy: register_streaming — one launch per time level; each thread owns one column of a 64-row strip and marches down it keeping the north/centre/south values in registers (each value of the current level loaded once per thread), east/west neighbours exchanged with warp shuffles
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 128;
constexpr int kStrip = 64;

__global__ void __launch_bounds__(kThreads)
wave_step_stream(int n, int m, float c2, const float* __restrict__ p,
                 const float* __restrict__ c, float* __restrict__ q) {
  const int j = blockIdx.x * kThreads + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const bool inside = j < m;
  const int i0 = blockIdx.y * kStrip;
  const int i1 = min(i0 + kStrip, n);
  // warp-uniform loop: lanes beyond m still take part in the shuffles
  float north = (inside && i0 > 0) ? c[(long long)(i0 - 1) * m + j] : 0.0f;
  float centre = inside ? c[(long long)i0 * m + j] : 0.0f;
  for (int i = i0; i < i1; ++i) {
    const float south = (inside && i + 1 < n) ? c[(long long)(i + 1) * m + j] : 0.0f;
    float west = __shfl_up_sync(0xffffffffu, centre, 1);
    float east = __shfl_down_sync(0xffffffffu, centre, 1);
    const long long row = (long long)i * m;
    if (lane == 0 && inside && j > 0) west = c[row + j - 1];
    if (lane == 31 && j + 1 < m) east = c[row + j + 1];
    if (inside) {
      const long long x = row + j;
      if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
        q[x] = centre;
      } else {
        const float lap = (north + south) + (west + east) - 4.0f * centre;
        q[x] = 2.0f * centre - p[x] + c2 * lap;
      }
    }
    north = centre;
    centre = south;
  }
}

__global__ void wave_copy_stream(long long total, const float* __restrict__ src,
                                 float* __restrict__ dst) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < total) dst[t] = src[t];
}
}  // namespace

extern "C" void wave2d_leapfrog(int n, int m, int k, float c2, const float* u_prev,
                                const float* u_cur, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const long long total = (long long)n * m;
  if (k <= 0) {
    wave_copy_stream<<<(int)((total + 255) / 256), 256, 0, stream>>>(total, u_cur, out);
    return;
  }
  float* scratch = nullptr;
  if (k >= 2) cudaMallocAsync(&scratch, (size_t)total * 2 * sizeof(float), stream);
  float* lev[3];
  lev[k % 3] = out;
  lev[(k + 1) % 3] = scratch;
  lev[(k + 2) % 3] = scratch ? scratch + total : nullptr;
  const dim3 grid((m + kThreads - 1) / kThreads, (n + kStrip - 1) / kStrip);
  for (int j = 1; j <= k; ++j) {
    const float* p = (j == 1) ? u_prev : (j == 2) ? u_cur : lev[(j - 2) % 3];
    const float* c = (j == 1) ? u_cur : lev[(j - 1) % 3];
    wave_step_stream<<<grid, kThreads, 0, stream>>>(n, m, c2, p, c, lev[j % 3]);
  }
  if (scratch) cudaFreeAsync(scratch, stream);
}

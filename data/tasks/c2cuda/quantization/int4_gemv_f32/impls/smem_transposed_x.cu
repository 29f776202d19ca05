// strategy: smem_transposed_x — a block owns 32 rows (4 per warp) and walks k in tiles of 64 groups; each x tile is staged once in shared memory transposed to [element][group] (padded), so lane l reading element e of its own group l hits consecutive banks; 128-bit weight loads, nibble sign-extension by shifts
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowsPerWarp = 4;
constexpr int kRowsPerBlock = kWarps * kRowsPerWarp;
constexpr int kTG = 64;           // groups per tile (2 per lane)
constexpr int kPitch = kTG + 1;   // padded row of the transposed tile

__device__ __forceinline__ float snib(unsigned int u, int t) { return (float)((int)(u << (28 - 4 * t)) >> 28); }

__global__ void __launch_bounds__(kThreads)
int4_gemv_smem_kernel(int rows, int groups, const unsigned char* __restrict__ w, const float* __restrict__ scales,
                      const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float xs[32 * kPitch];  // xs[e * kPitch + g]: element e of tile group g
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const long long row0 = (long long)blockIdx.x * kRowsPerBlock + warp * kRowsPerWarp;
  const uint4* w16 = reinterpret_cast<const uint4*>(w);
  float acc[kRowsPerWarp];
#pragma unroll
  for (int i = 0; i < kRowsPerWarp; ++i) acc[i] = 0.0f;

  for (int g0 = 0; g0 < groups; g0 += kTG) {
    const int tg = min(kTG, groups - g0);
    __syncthreads();
    for (int idx = tid; idx < kTG * 32; idx += kThreads) {
      const int g = idx >> 5, e = idx & 31;  // coalesced global read, conflict-free padded store
      xs[e * kPitch + g] = g < tg ? __ldg(x + (size_t)(g0 + g) * 32 + e) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
      const long long r = row0 + i;
      if (r >= rows) break;  // warp-uniform
#pragma unroll
      for (int h = 0; h < kTG / 32; ++h) {
        const int g = lane + 32 * h;
        if (g < tg) {
          const uint4 q = __ldcs(w16 + (size_t)r * groups + g0 + g);
          const unsigned int word[4] = {q.x, q.y, q.z, q.w};
          float part = 0.0f;
#pragma unroll
          for (int qw = 0; qw < 4; ++qw)
#pragma unroll
            for (int t = 0; t < 8; ++t) part = fmaf(snib(word[qw], t), xs[(8 * qw + t) * kPitch + g], part);
          acc[i] = fmaf(__ldcs(scales + (size_t)r * groups + g0 + g), part, acc[i]);
        }
      }
    }
  }
#pragma unroll
  for (int i = 0; i < kRowsPerWarp; ++i) {
    float s = acc[i];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    const long long r = row0 + i;
    if (lane == 0 && r < rows) y[r] = s;
  }
}

}  // namespace

extern "C" void int4_gemv_f32(int rows, int groups, const unsigned char* w, const float* scales, const float* x,
                              float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  const unsigned int blocks = (unsigned int)((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  int4_gemv_smem_kernel<<<blocks, kThreads, 0, stream>>>(rows, groups, w, scales, x, y);
}

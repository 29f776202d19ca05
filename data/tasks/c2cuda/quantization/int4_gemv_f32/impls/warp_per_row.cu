// strategy: warp_per_row — one warp per row, lane l takes whole groups l, l+32, ...: one 128-bit load brings a group's 32 nibbles, sign-extended with shifts, x read as float4 through the read-only cache, per-group partial scaled once, butterfly shuffle reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

// nibble t (0..7) of a 32-bit word, sign-extended; element 8*word + t of the group
__device__ __forceinline__ float snib(unsigned int u, int t) { return (float)((int)(u << (28 - 4 * t)) >> 28); }

__device__ __forceinline__ float word_dot(unsigned int u, const float4* xg) {
  const float4 lo = __ldg(xg), hi = __ldg(xg + 1);
  float s = snib(u, 0) * lo.x;
  s = fmaf(snib(u, 1), lo.y, s);
  s = fmaf(snib(u, 2), lo.z, s);
  s = fmaf(snib(u, 3), lo.w, s);
  s = fmaf(snib(u, 4), hi.x, s);
  s = fmaf(snib(u, 5), hi.y, s);
  s = fmaf(snib(u, 6), hi.z, s);
  s = fmaf(snib(u, 7), hi.w, s);
  return s;
}

__global__ void __launch_bounds__(kThreads)
int4_gemv_warp_kernel(int rows, int groups, const unsigned char* __restrict__ w, const float* __restrict__ scales,
                      const float* __restrict__ x, float* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const uint4* wr = reinterpret_cast<const uint4*>(w) + (size_t)r * groups;  // 16 bytes per group
    const float* sr = scales + (size_t)r * groups;
    float acc = 0.0f;
    for (int g = lane; g < groups; g += 32) {
      const uint4 q = __ldcs(wr + g);
      const float4* xg = x4 + (size_t)g * 8;
      float part = word_dot(q.x, xg);
      part += word_dot(q.y, xg + 2);
      part += word_dot(q.z, xg + 4);
      part += word_dot(q.w, xg + 6);
      acc = fmaf(__ldcs(sr + g), part, acc);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) y[r] = acc;
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void int4_gemv_f32(int rows, int groups, const unsigned char* w, const float* scales, const float* x,
                              float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)rows + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  int4_gemv_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, groups, w, scales, x, y);
}

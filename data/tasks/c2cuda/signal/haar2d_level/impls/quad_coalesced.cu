// strategy: quad_coalesced — one thread per 2x2 block: two float2 loads (consecutive threads read consecutive pairs of both rows), all four subband values computed once, four coalesced stores; 2-D grid with columns on threadIdx.x
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) haar2d_quad_kernel(int h2, int w2, const float2* __restrict__ in,
                                                          float* __restrict__ out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= h2 || j >= w2) return;
  // a row of the input is w2 float2 values; row 2i starts at float2 index 2i*w2
  const float2 top = __ldg(in + (2LL * i) * w2 + j);
  const float2 bot = __ldg(in + (2LL * i + 1) * w2 + j);
  const float s0 = top.x + top.y, d0 = top.x - top.y;
  const float s1 = bot.x + bot.y, d1 = bot.x - bot.y;
  const long long w = 2LL * w2;
  out[(long long)i * w + j] = 0.5f * (s0 + s1);
  out[(long long)i * w + w2 + j] = 0.5f * (d0 + d1);
  out[(long long)(h2 + i) * w + j] = 0.5f * (s0 - s1);
  out[(long long)(h2 + i) * w + w2 + j] = 0.5f * (d0 - d1);
}

extern "C" void haar2d_level(int h2, int w2, const float* in, float* out, cudaStream_t stream) {
  if (h2 <= 0 || w2 <= 0) return;
  dim3 block(64, 4);
  dim3 grid((w2 + 63) / 64, (h2 + 3) / 4);
  haar2d_quad_kernel<<<grid, block, 0, stream>>>(h2, w2, reinterpret_cast<const float2*>(in), out);
}

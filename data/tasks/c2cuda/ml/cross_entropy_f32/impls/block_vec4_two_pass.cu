// strategy: block_vec4_two_pass — one 256-thread block per row (grid-stride): float4 loads (scalar head/tail peel to a 16-byte boundary) for a block max via shuffles + shared memory, then a second float4 pass for the sum of exp (row re-read from L2), thread 0 finishes with the label logit
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

static constexpr int kThreads = 256;

template <bool IsMax>
__device__ __forceinline__ float block_reduce(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const float o = __shfl_xor_sync(0xffffffffu, v, off);
    v = IsMax ? fmaxf(v, o) : v + o;
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float t = (lane < kThreads / 32) ? red[lane] : (IsMax ? -INFINITY : 0.f);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const float o = __shfl_xor_sync(0xffffffffu, t, off);
    t = IsMax ? fmaxf(t, o) : t + o;
  }
  __syncthreads();
  return t;
}

__global__ void __launch_bounds__(kThreads)
xent_block_kernel(int rows, int classes, const float* __restrict__ logits, const int* __restrict__ labels,
                  float* __restrict__ loss) {
  __shared__ float red[kThreads / 32];
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* z = logits + r * (long long)classes;
    const bool word_aligned = (((uintptr_t)z) & 3) == 0;
    int head = word_aligned ? (int)(((16 - ((uintptr_t)z & 15)) & 15) >> 2) : 0;
    if (head > classes) head = classes;
    const int nvec = word_aligned ? ((classes - head) >> 2) : 0;
    const int tail0 = head + (nvec << 2);
    const float4* body = reinterpret_cast<const float4*>(z + head);
    float m = -INFINITY;
    for (int v = threadIdx.x; v < nvec; v += kThreads) {
      const float4 q = body[v];
      m = fmaxf(m, fmaxf(fmaxf(q.x, q.y), fmaxf(q.z, q.w)));
    }
    if ((int)threadIdx.x < head) m = fmaxf(m, z[threadIdx.x]);
    for (int c = tail0 + threadIdx.x; c < classes; c += kThreads) m = fmaxf(m, z[c]);
    m = block_reduce<true>(m, red);
    float s0 = 0.f, s1 = 0.f;
    for (int v = threadIdx.x; v < nvec; v += kThreads) {
      const float4 q = body[v];
      s0 += expf(q.x - m) + expf(q.y - m);
      s1 += expf(q.z - m) + expf(q.w - m);
    }
    if ((int)threadIdx.x < head) s0 += expf(z[threadIdx.x] - m);
    for (int c = tail0 + threadIdx.x; c < classes; c += kThreads) s1 += expf(z[c] - m);
    const float s = block_reduce<false>(s0 + s1, red);
    if (threadIdx.x == 0) loss[r] = (m + logf(s)) - z[labels[r]];
  }
}

extern "C" void cross_entropy_f32(int rows, int classes, const float* logits, const int* labels, float* loss,
                                  cudaStream_t stream) {
  if (rows <= 0 || classes <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  long long cap = (long long)sms * 8;
  int blocks = (int)((long long)rows < cap ? (long long)rows : cap);
  xent_block_kernel<<<blocks, kThreads, 0, stream>>>(rows, classes, logits, labels, loss);
}

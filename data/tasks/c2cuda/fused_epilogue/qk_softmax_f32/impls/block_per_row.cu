// strategy: block_per_row — one 256-thread block per query row: the q row sits in shared memory, each warp takes whole keys (lanes split d, coalesced key reads, shuffle reduction) and stores raw scores into P; block-wide shuffle reductions give max and sum, then two coalesced sweeps over the L2-resident row exponentiate and normalise
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ float block_max(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  __syncthreads();
  if (lane == 0) red[w] = v;
  __syncthreads();
  v = red[0];
#pragma unroll
  for (int t = 1; t < kWarps; ++t) v = fmaxf(v, red[t]);
  return v;
}

__device__ float block_sum(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  __syncthreads();
  if (lane == 0) red[w] = v;
  __syncthreads();
  v = 0.0f;
#pragma unroll
  for (int t = 0; t < kWarps; ++t) v += red[t];
  return v;
}

__global__ void __launch_bounds__(kThreads)
qk_softmax_row_kernel(int m, int d, float scale, const float* __restrict__ q, const float* __restrict__ k,
                      float* __restrict__ p) {
  extern __shared__ float qs[];
  __shared__ float red[kWarps];
  const int i = blockIdx.x;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (int t = threadIdx.x; t < d; t += kThreads) qs[t] = q[(long long)i * d + t];
  __syncthreads();
  float* prow = p + (long long)i * m;

  float mx = -INFINITY;
  for (int j = w; j < m; j += kWarps) {
    const float* kj = k + (long long)j * d;
    float dot = 0.0f;
    for (int t = lane; t < d; t += 32) dot += qs[t] * __ldg(kj + t);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) dot += __shfl_xor_sync(0xffffffffu, dot, off);
    const float s = scale * dot;  // identical in every lane after the butterfly
    mx = fmaxf(mx, s);
    if (lane == 0) prow[j] = s;
  }
  mx = block_max(mx, red);  // its __syncthreads also orders the score stores before the re-reads below

  float sum = 0.0f;
  for (int j = threadIdx.x; j < m; j += kThreads) {
    const float e = expf(prow[j] - mx);
    prow[j] = e;
    sum += e;
  }
  sum = block_sum(sum, red);
  const float inv = 1.0f / sum;
  for (int j = threadIdx.x; j < m; j += kThreads) prow[j] *= inv;
}

}  // namespace

extern "C" void qk_softmax_f32(int n, int m, int d, float scale, const float* q, const float* k, float* p,
                               cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const size_t smem = sizeof(float) * (size_t)(d > 0 ? d : 1);
  qk_softmax_row_kernel<<<n, kThreads, smem, stream>>>(m, d, scale, q, k, p);
}

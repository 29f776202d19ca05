// strategy: block_register_cache — one 256-thread block per row; rows that are a multiple of 4 and at most 8192 long are loaded once with float4 into registers, max and sum-of-exp use two block reductions (shuffles + shared memory) and the output is written from registers; other shapes fall back to a scalar three-sweep block-per-row path
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kVec = 8;  // float4 per thread: up to 8192 floats per row in registers

__device__ __forceinline__ float block_max(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = red[0];
#pragma unroll
  for (int t = 1; t < kWarps; ++t) r = fmaxf(r, red[t]);
  return r;
}

__device__ __forceinline__ float block_sum(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = 0.0f;
#pragma unroll
  for (int t = 0; t < kWarps; ++t) r += red[t];
  return r;
}

__global__ void __launch_bounds__(kThreads)
log_softmax_vec_kernel(int cols, const float4* __restrict__ x, float4* __restrict__ out) {
  __shared__ float red_max[kWarps], red_sum[kWarps];
  const int nv = cols >> 2;
  const long long base = (long long)blockIdx.x * nv;
  float4 v[kVec];
  float mx = -INFINITY;
#pragma unroll
  for (int t = 0; t < kVec; ++t) {
    const int c = threadIdx.x + t * kThreads;
    if (c < nv) {
      v[t] = x[base + c];
      mx = fmaxf(mx, fmaxf(fmaxf(v[t].x, v[t].y), fmaxf(v[t].z, v[t].w)));
    }
  }
  mx = block_max(mx, red_max);
  float sm = 0.0f;
#pragma unroll
  for (int t = 0; t < kVec; ++t) {
    const int c = threadIdx.x + t * kThreads;
    if (c < nv) sm += expf(v[t].x - mx) + expf(v[t].y - mx) + expf(v[t].z - mx) + expf(v[t].w - mx);
  }
  const float lse = logf(block_sum(sm, red_sum));
#pragma unroll
  for (int t = 0; t < kVec; ++t) {
    const int c = threadIdx.x + t * kThreads;
    if (c < nv) {
      float4 o;
      o.x = (v[t].x - mx) - lse;
      o.y = (v[t].y - mx) - lse;
      o.z = (v[t].z - mx) - lse;
      o.w = (v[t].w - mx) - lse;
      out[base + c] = o;
    }
  }
}

__global__ void __launch_bounds__(kThreads)
log_softmax_scalar_kernel(int cols, const float* __restrict__ x, float* __restrict__ out) {
  __shared__ float red_max[kWarps], red_sum[kWarps];
  const float* xr = x + (long long)blockIdx.x * cols;
  float* orow = out + (long long)blockIdx.x * cols;
  float mx = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) mx = fmaxf(mx, __ldg(xr + c));
  mx = block_max(mx, red_max);
  float sm = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) sm += expf(__ldg(xr + c) - mx);
  const float lse = logf(block_sum(sm, red_sum));
  for (int c = threadIdx.x; c < cols; c += kThreads) orow[c] = (__ldg(xr + c) - mx) - lse;
}

}  // namespace

extern "C" void log_softmax_f32(int rows, int cols, const float* x, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  if ((cols & 3) == 0 && cols <= 4 * kThreads * kVec) {
    log_softmax_vec_kernel<<<rows, kThreads, 0, stream>>>(cols, reinterpret_cast<const float4*>(x),
                                                          reinterpret_cast<float4*>(out));
  } else {
    log_softmax_scalar_kernel<<<rows, kThreads, 0, stream>>>(cols, x, out);
  }
}

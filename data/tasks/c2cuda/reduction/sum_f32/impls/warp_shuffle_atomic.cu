// strategy: warp_shuffle_atomic — float4 grid-stride loads into 4 register accumulators, warp-shuffle then block reduction, one float atomicAdd per block (unordered)
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Valid in thread 0 only. blockDim.x must be a multiple of 32.
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_part[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) warp_part[warp] = v;
  __syncthreads();
  const int nwarps = blockDim.x >> 5;
  v = (threadIdx.x < nwarps) ? warp_part[lane] : 0.0f;
  if (warp == 0) v = warp_sum(v);
  return v;
}

__global__ void sum_atomic_kernel(int n, const float* __restrict__ x, float* __restrict__ out, bool vec_ok) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
  long long nvec = vec_ok ? n / 4 : 0;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  for (long long v = tid; v < nvec; v += stride) {
    float4 q = x4[v];
    s0 += q.x; s1 += q.y; s2 += q.z; s3 += q.w;
  }
  for (long long i = nvec * 4 + tid; i < n; i += stride) s0 += x[i];
  float total = block_sum((s0 + s1) + (s2 + s3));
  if (threadIdx.x == 0) atomicAdd(out, total);
}

extern "C" void sum_f32(int n, const float* x, float* out, cudaStream_t stream) {
  cudaMemsetAsync(out, 0, sizeof(float), stream);
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  bool vec_ok = ((uintptr_t)x & 15) == 0;
  long long work = ((long long)n + 3) / 4;
  long long need = (work + threads - 1) / threads;
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  sum_atomic_kernel<<<blocks, threads, 0, stream>>>(n, x, out, vec_ok);
}

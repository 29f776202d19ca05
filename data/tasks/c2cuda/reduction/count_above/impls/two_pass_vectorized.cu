// strategy: two_pass_vectorized — pass 1: per-thread counts over float4 loads (two in flight), block sum via shuffles into a scratch partial; pass 2: one block adds the partials
#include <cuda_runtime.h>
#include <cstdint>

static constexpr int kThreads = 512;

// Result valid in thread 0 only.
__device__ int block_sum_i(int v) {
  __shared__ int warp_part[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) warp_part[warp] = v;
  __syncthreads();
  const int nwarps = blockDim.x >> 5;
  v = (threadIdx.x < nwarps) ? warp_part[lane] : 0;
  if (warp == 0) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  }
  return v;
}

__device__ __forceinline__ int count4(float4 q, float thr) {
  return (q.x > thr) + (q.y > thr) + (q.z > thr) + (q.w > thr);
}

__global__ void count_partial_kernel(int n, float thr, const float* __restrict__ x, int* __restrict__ partial,
                                     bool vec_ok) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long nvec = vec_ok ? n / 4 : 0;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  int c = 0;
  long long v = tid;
  for (; v + stride < nvec; v += 2 * stride) {
    float4 p = x4[v];
    float4 q = x4[v + stride];
    c += count4(p, thr) + count4(q, thr);
  }
  if (v < nvec) c += count4(x4[v], thr);
  for (long long i = nvec * 4 + tid; i < n; i += stride) c += (x[i] > thr);
  c = block_sum_i(c);
  if (threadIdx.x == 0) partial[blockIdx.x] = c;
}

__global__ void count_final_kernel(int nparts, const int* __restrict__ partial, int* __restrict__ out) {
  int c = 0;
  for (int i = threadIdx.x; i < nparts; i += blockDim.x) c += partial[i];
  c = block_sum_i(c);
  if (threadIdx.x == 0) out[0] = c;
}

extern "C" void count_above_f32(int n, float thr, const float* x, int* out, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(out, 0, sizeof(int), stream);
    return;
  }
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  bool vec_ok = ((uintptr_t)x & 15) == 0;
  long long work = ((long long)n + 3) / 4;
  long long need = (work + kThreads - 1) / kThreads;
  long long cap = (long long)sms * 4;
  int blocks = (int)(need < cap ? need : cap);
  int* partial = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&partial), sizeof(int) * (size_t)blocks, stream);
  count_partial_kernel<<<blocks, kThreads, 0, stream>>>(n, thr, x, partial, vec_ok);
  count_final_kernel<<<1, 1024, 0, stream>>>(blocks, partial, out);
  cudaFreeAsync(partial, stream);
}

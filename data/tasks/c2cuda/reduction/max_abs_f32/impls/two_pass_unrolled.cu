// strategy: two_pass_unrolled — pass 1: 4 float4 loads in flight per thread, shared-memory tree per block into a scratch partial; pass 2: one block folds the partials
#include <cuda_runtime.h>
#include <cstdint>

static constexpr int kThreads = 256;
static constexpr int kUnroll = 4;

// Classic sequential-addressing shared-memory tree; result in s[0]. kThreads is a power of two.
__device__ __forceinline__ void tree_max(float* s) {
  for (int step = kThreads / 2; step > 32; step >>= 1) {
    if ((int)threadIdx.x < step) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + step]);
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float v = fmaxf(s[threadIdx.x], s[threadIdx.x + 32]);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, off));
    if (threadIdx.x == 0) s[0] = v;
  }
}

__global__ void maxabs_partial_kernel(int n, const float* __restrict__ x, float* __restrict__ partial,
                                      bool vec_ok) {
  __shared__ float s[kThreads];
  const long long nvec = vec_ok ? n / 4 : 0;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  // Each block owns tiles of kThreads*kUnroll vectors; tiles are distributed grid-stride.
  const long long tile = (long long)kThreads * kUnroll;
  float m = 0.0f;
  for (long long base = (long long)blockIdx.x * tile; base < nvec; base += (long long)gridDim.x * tile) {
    float4 q[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      long long v = base + u * kThreads + threadIdx.x;
      q[u] = (v < nvec) ? x4[v] : make_float4(0.f, 0.f, 0.f, 0.f);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      m = fmaxf(m, fmaxf(fmaxf(fabsf(q[u].x), fabsf(q[u].y)), fmaxf(fabsf(q[u].z), fabsf(q[u].w))));
  }
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = nvec * 4 + tid; i < n; i += stride) m = fmaxf(m, fabsf(x[i]));
  s[threadIdx.x] = m;
  __syncthreads();
  tree_max(s);
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void maxabs_final_kernel(int nparts, const float* __restrict__ partial, float* __restrict__ out) {
  __shared__ float s[kThreads];
  float m = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += kThreads) m = fmaxf(m, partial[i]);
  s[threadIdx.x] = m;
  __syncthreads();
  tree_max(s);
  if (threadIdx.x == 0) out[0] = s[0];
}

extern "C" void max_abs_f32(int n, const float* x, float* out, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(out, 0, sizeof(float), stream);
    return;
  }
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  bool vec_ok = ((uintptr_t)x & 15) == 0;
  long long work = ((long long)n + 3) / 4;
  long long need = (work + (long long)kThreads * kUnroll - 1) / ((long long)kThreads * kUnroll);
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  if (blocks < 1) blocks = 1;
  float* partial = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&partial), sizeof(float) * (size_t)blocks, stream);
  maxabs_partial_kernel<<<blocks, kThreads, 0, stream>>>(n, x, partial, vec_ok);
  maxabs_final_kernel<<<1, kThreads, 0, stream>>>(blocks, partial, out);
  cudaFreeAsync(partial, stream);
}

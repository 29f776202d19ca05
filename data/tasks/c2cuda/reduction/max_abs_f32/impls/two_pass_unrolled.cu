// strategy: two_pass_unrolled — pass 1: 2D grid, 4 float4 loads in flight per thread over block-owned tiles, shared-memory tree per block into scratch partials; pass 2: one block per segment folds its partials
#include <cuda_runtime.h>
#include <cstdint>

static constexpr int kThreads = 256;
static constexpr int kUnroll = 4;

// Sequential-addressing shared-memory tree finished by one warp; result returned in thread 0.
// Ends with a barrier so s[] can be reused.
__device__ float tree_max(float* s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (int step = kThreads / 2; step > 32; step >>= 1) {
    if ((int)threadIdx.x < step) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + step]);
    __syncthreads();
  }
  float r = 0.0f;
  if (threadIdx.x < 32) {
    r = fmaxf(s[threadIdx.x], s[threadIdx.x + 32]);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) r = fmaxf(r, __shfl_down_sync(0xffffffffu, r, off));
  }
  __syncthreads();
  return r;
}

struct Split {
  long long head, nvec, tail0;
};
__device__ __forceinline__ Split split_segment(const float* p, long long n) {
  Split s{0, 0, 0};
  if (((uintptr_t)p & 3) != 0) return s;
  long long h = (long long)((((16 - ((uintptr_t)p & 15)) & 15)) >> 2);
  if (h > n) h = n;
  s.head = h;
  s.nvec = (n - h) >> 2;
  s.tail0 = h + (s.nvec << 2);
  return s;
}

// partial[b * gridDim.x + blockIdx.x]
__global__ void maxabs_partial_kernel(int batch, int n, const float* __restrict__ x, float* __restrict__ partial) {
  __shared__ float s[kThreads];
  const long long tile = (long long)kThreads * kUnroll;
  for (int b = blockIdx.y; b < batch; b += gridDim.y) {
    const float* seg = x + (long long)b * n;
    const Split sp = split_segment(seg, n);
    const float4* body = reinterpret_cast<const float4*>(seg + sp.head);
    float m = 0.0f;
    // Each block owns tiles of kThreads*kUnroll vectors, tiles distributed grid-stride over blockIdx.x.
    for (long long base = (long long)blockIdx.x * tile; base < sp.nvec; base += (long long)gridDim.x * tile) {
      float4 q[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        long long v = base + u * kThreads + threadIdx.x;
        q[u] = (v < sp.nvec) ? body[v] : make_float4(0.f, 0.f, 0.f, 0.f);
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        m = fmaxf(m, fmaxf(fmaxf(fabsf(q[u].x), fabsf(q[u].y)), fmaxf(fabsf(q[u].z), fabsf(q[u].w))));
    }
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    if (tid < sp.head) m = fmaxf(m, fabsf(seg[tid]));
    for (long long i = sp.tail0 + tid; i < n; i += stride) m = fmaxf(m, fabsf(seg[i]));
    float r = tree_max(s, m);
    if (threadIdx.x == 0) partial[(long long)b * gridDim.x + blockIdx.x] = r;
  }
}

__global__ void maxabs_final_kernel(int batch, int nparts, const float* __restrict__ partial, float* __restrict__ out) {
  __shared__ float s[kThreads];
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    float m = 0.0f;
    for (int i = threadIdx.x; i < nparts; i += kThreads) m = fmaxf(m, partial[(long long)b * nparts + i]);
    float r = tree_max(s, m);
    if (threadIdx.x == 0) out[b] = r;
  }
}

extern "C" void max_abs_f32(int batch, int n, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0) return;
  if (n <= 0) {
    cudaMemsetAsync(out, 0, sizeof(float) * (size_t)batch, stream);
    return;
  }
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  int gy = batch < 65535 ? batch : 65535;
  const long long tile = (long long)kThreads * kUnroll;
  long long per_seg = ((long long)n / 4 + tile - 1) / tile;
  long long budget = (long long)sms * 8 / gy;
  if (budget < 1) budget = 1;
  long long gx = per_seg < budget ? per_seg : budget;
  if (gx < 1) gx = 1;
  float* partial = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&partial), sizeof(float) * (size_t)gx * (size_t)batch, stream);
  maxabs_partial_kernel<<<dim3((unsigned)gx, (unsigned)gy), kThreads, 0, stream>>>(batch, n, x, partial);
  int fb = batch < 65535 ? batch : 65535;
  maxabs_final_kernel<<<fb, kThreads, 0, stream>>>(batch, (int)gx, partial, out);
  cudaFreeAsync(partial, stream);
}

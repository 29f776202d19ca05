// strategy: two_pass_vectorized — pass 1: 2D grid, per-thread counts over float4 loads (two in flight), block sum via shuffles into scratch partials; pass 2: one block per segment adds its partials
#include <cuda_runtime.h>
#include <cstdint>

static constexpr int kThreads = 512;

// Result valid in thread 0 only; trailing barrier so it can be called in a loop.
__device__ int block_sum_i(int v, int* warp_part) {
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
  __syncthreads();
  return v;
}

__device__ __forceinline__ int count4(float4 q, float thr) {
  return (q.x > thr) + (q.y > thr) + (q.z > thr) + (q.w > thr);
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
__global__ void count_partial_kernel(int batch, int n, float thr, const float* __restrict__ x,
                                     int* __restrict__ partial) {
  __shared__ int warp_part[32];
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (int b = blockIdx.y; b < batch; b += gridDim.y) {
    const float* seg = x + (long long)b * n;
    const Split sp = split_segment(seg, n);
    const float4* body = reinterpret_cast<const float4*>(seg + sp.head);
    int c = 0;
    long long v = tid;
    for (; v + stride < sp.nvec; v += 2 * stride) {
      float4 p = body[v];
      float4 q = body[v + stride];
      c += count4(p, thr) + count4(q, thr);
    }
    if (v < sp.nvec) c += count4(body[v], thr);
    if (tid < sp.head) c += (seg[tid] > thr);
    for (long long i = sp.tail0 + tid; i < n; i += stride) c += (seg[i] > thr);
    c = block_sum_i(c, warp_part);
    if (threadIdx.x == 0) partial[(long long)b * gridDim.x + blockIdx.x] = c;
  }
}

__global__ void count_final_kernel(int batch, int nparts, const int* __restrict__ partial, int* __restrict__ out) {
  __shared__ int warp_part[32];
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    int c = 0;
    for (int i = threadIdx.x; i < nparts; i += blockDim.x) c += partial[(long long)b * nparts + i];
    c = block_sum_i(c, warp_part);
    if (threadIdx.x == 0) out[b] = c;
  }
}

extern "C" void count_above_f32(int batch, int n, float thr, const float* x, int* out, cudaStream_t stream) {
  if (batch <= 0) return;
  if (n <= 0) {
    cudaMemsetAsync(out, 0, sizeof(int) * (size_t)batch, stream);
    return;
  }
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  int gy = batch < 65535 ? batch : 65535;
  long long per_seg = ((long long)n / 4 + kThreads - 1) / kThreads;
  long long budget = (long long)sms * 4 / gy;
  if (budget < 1) budget = 1;
  long long gx = per_seg < budget ? per_seg : budget;
  if (gx < 1) gx = 1;
  int* partial = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&partial), sizeof(int) * (size_t)gx * (size_t)batch, stream);
  count_partial_kernel<<<dim3((unsigned)gx, (unsigned)gy), kThreads, 0, stream>>>(batch, n, thr, x, partial);
  int fb = batch < 65535 ? batch : 65535;
  count_final_kernel<<<fb, gx >= 256 ? 256 : 64, 0, stream>>>(batch, (int)gx, partial, out);
  cudaFreeAsync(partial, stream);
}

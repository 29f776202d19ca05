// strategy: block_smem_cached — one 256-thread block per row (grid-stride); the row is read once with float4 loads into dynamic shared memory (when it fits, else re-read from global), block max and block sum via warp shuffles + shared combine, then float4 writes
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

static constexpr int kThreads = 256;
static constexpr int kMaxCached = 12288;  // floats of dynamic shared memory per block (48 KB)

__device__ __forceinline__ float block_max(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float t = (lane < kThreads / 32) ? red[lane] : -INFINITY;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) t = fmaxf(t, __shfl_xor_sync(0xffffffffu, t, off));
  __syncthreads();  // red is reused right after
  return t;
}

__device__ __forceinline__ float block_sum(float v, float* red) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float t = (lane < kThreads / 32) ? red[lane] : 0.f;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) t += __shfl_xor_sync(0xffffffffu, t, off);
  __syncthreads();
  return t;
}

__global__ void __launch_bounds__(kThreads)
softmax_block_kernel(int rows, int cols, int cached, const float* __restrict__ x, float* __restrict__ out) {
  extern __shared__ __align__(16) float rowbuf[];
  __shared__ float red[kThreads / 32];
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* xr = x + r * (long long)cols;
    float* o = out + r * (long long)cols;
    // vector path only when the whole row starts on a 16-byte boundary and cols % 4 == 0 for every row
    const bool vec = ((cols & 3) == 0) && ((((uintptr_t)xr) & 15) == 0) && ((((uintptr_t)o) & 15) == 0);
    float m = -INFINITY;
    if (cached) {
      if (vec) {
        const int nv = cols >> 2;
        for (int v = threadIdx.x; v < nv; v += kThreads) {
          const float4 q = reinterpret_cast<const float4*>(xr)[v];
          reinterpret_cast<float4*>(rowbuf)[v] = q;
          m = fmaxf(m, fmaxf(fmaxf(q.x, q.y), fmaxf(q.z, q.w)));
        }
      } else {
        for (int c = threadIdx.x; c < cols; c += kThreads) {
          const float v = xr[c];
          rowbuf[c] = v;
          m = fmaxf(m, v);
        }
      }
    } else {
      for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, xr[c]);
    }
    m = block_max(m, red);  // its barrier also publishes rowbuf
    const float* src = cached ? rowbuf : xr;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += kThreads) s += expf(src[c] - m);
    s = block_sum(s, red);
    const float inv = 1.f / s;
    if (vec) {
      const int nv = cols >> 2;
      for (int v = threadIdx.x; v < nv; v += kThreads) {
        float4 q = cached ? reinterpret_cast<const float4*>(rowbuf)[v] : reinterpret_cast<const float4*>(xr)[v];
        q.x = expf(q.x - m) * inv;
        q.y = expf(q.y - m) * inv;
        q.z = expf(q.z - m) * inv;
        q.w = expf(q.w - m) * inv;
        reinterpret_cast<float4*>(o)[v] = q;
      }
    } else {
      for (int c = threadIdx.x; c < cols; c += kThreads) o[c] = expf(src[c] - m) * inv;
    }
    __syncthreads();  // rowbuf is overwritten by the next row
  }
}

extern "C" void softmax_rows_f32(int rows, int cols, const float* x, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int cached = cols <= kMaxCached ? 1 : 0;
  const size_t smem = cached ? (size_t)cols * sizeof(float) : 0;
  long long cap = (long long)sms * 8;
  int blocks = (int)((long long)rows < cap ? (long long)rows : cap);
  softmax_block_kernel<<<blocks, kThreads, smem, stream>>>(rows, cols, cached, x, out);
}

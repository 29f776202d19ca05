// strategy: two_pass_pairs — pass 1: each block scans one contiguous chunk of a segment (coalesced, two loads in flight) and reduces (value, index) pairs with an explicit lowest-index tie rule; pass 2: one block per segment reduces the chunk pairs
#include <cuda_runtime.h>

static constexpr int kThreads = 512;

struct Pair {
  float v;
  int i;  // -1 = empty
};

// true when b should replace a: smaller value, or equal value with a lower index.
__device__ __forceinline__ bool better(Pair b, Pair a) {
  if (b.i < 0) return false;
  if (a.i < 0) return true;
  return b.v < a.v || (b.v == a.v && b.i < a.i);
}

__device__ __forceinline__ Pair shfl_pair(Pair p, int off) {
  Pair o;
  o.v = __shfl_down_sync(0xffffffffu, p.v, off);
  o.i = __shfl_down_sync(0xffffffffu, p.i, off);
  return o;
}

// Result valid in thread 0 only; trailing barrier so it can be called in a loop.
__device__ Pair block_argmin(Pair p, float* wv, int* wi) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    Pair o = shfl_pair(p, off);
    if (better(o, p)) p = o;
  }
  if (lane == 0) { wv[warp] = p.v; wi[warp] = p.i; }
  __syncthreads();
  const int nwarps = blockDim.x >> 5;
  if (warp == 0) {
    p.v = (lane < nwarps) ? wv[lane] : 0.0f;
    p.i = (lane < nwarps) ? wi[lane] : -1;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      Pair o = shfl_pair(p, off);
      if (better(o, p)) p = o;
    }
  }
  __syncthreads();
  return p;
}

// Block (cx, b) scans chunk [cx*chunk, min(n, (cx+1)*chunk)) of segment b; pair at pv/pi[b*gridDim.x + cx].
__global__ void argmin_chunk_kernel(int batch, int n, long long chunk, const float* __restrict__ x, float* pv,
                                    int* pi) {
  __shared__ float wv[32];
  __shared__ int wi[32];
  for (int b = blockIdx.y; b < batch; b += gridDim.y) {
    const float* seg = x + (long long)b * n;
    const long long begin = (long long)blockIdx.x * chunk;
    long long end = begin + chunk;
    if (end > n) end = n;
    Pair p{0.0f, -1};
    long long i = begin + threadIdx.x;
    // indices seen by one thread increase, so strict '<' keeps the earliest
    for (; i + blockDim.x < end; i += 2 * (long long)blockDim.x) {
      float a = seg[i];
      float c = seg[i + blockDim.x];
      if (p.i < 0 || a < p.v) { p.v = a; p.i = (int)i; }
      if (c < p.v) { p.v = c; p.i = (int)(i + blockDim.x); }
    }
    if (i < end) {
      float a = seg[i];
      if (p.i < 0 || a < p.v) { p.v = a; p.i = (int)i; }
    }
    p = block_argmin(p, wv, wi);
    if (threadIdx.x == 0) {
      pv[(long long)b * gridDim.x + blockIdx.x] = p.v;
      pi[(long long)b * gridDim.x + blockIdx.x] = p.i;
    }
  }
}

__global__ void argmin_final_kernel(int batch, int nparts, const float* pv, const int* pi, int* out) {
  __shared__ float wv[32];
  __shared__ int wi[32];
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    Pair p{0.0f, -1};
    for (int k = threadIdx.x; k < nparts; k += blockDim.x) {
      Pair o{pv[(long long)b * nparts + k], pi[(long long)b * nparts + k]};
      if (better(o, p)) p = o;
    }
    p = block_argmin(p, wv, wi);
    if (threadIdx.x == 0) out[b] = p.i;
  }
}

extern "C" void argmin_f32(int batch, int n, const float* x, int* out, cudaStream_t stream) {
  if (batch <= 0) return;
  if (n <= 0) {
    cudaMemsetAsync(out, 0xff, sizeof(int) * (size_t)batch, stream);  // -1 everywhere
    return;
  }
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  int gy = batch < 65535 ? batch : 65535;
  long long budget = (long long)sms * 4 / gy;
  if (budget < 1) budget = 1;
  // chunk length: a multiple of kThreads with at least 8 elements per thread
  const long long per = (long long)kThreads * 8;
  long long chunk = ((long long)n + budget - 1) / budget;
  chunk = ((chunk + per - 1) / per) * per;
  long long gx = ((long long)n + chunk - 1) / chunk;  // >= 1 since n >= 1
  size_t np = (size_t)gx * (size_t)batch;
  void* scratch = nullptr;
  cudaMallocAsync(&scratch, (sizeof(float) + sizeof(int)) * np, stream);
  float* pv = static_cast<float*>(scratch);
  int* pi = reinterpret_cast<int*>(pv + np);
  argmin_chunk_kernel<<<dim3((unsigned)gx, (unsigned)gy), kThreads, 0, stream>>>(batch, n, chunk, x, pv, pi);
  int fb = batch < 65535 ? batch : 65535;
  argmin_final_kernel<<<fb, gx >= 256 ? 256 : 64, 0, stream>>>(batch, (int)gx, pv, pi, out);
  cudaFreeAsync(scratch, stream);
}

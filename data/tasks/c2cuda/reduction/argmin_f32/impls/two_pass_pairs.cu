// strategy: two_pass_pairs — pass 1: each block reduces a contiguous segment to a (value, index) pair with an explicit lowest-index tie rule in shared memory; pass 2: one block reduces the pairs
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

// Result valid in thread 0 only.
__device__ Pair block_argmin(Pair p) {
  __shared__ float wv[32];
  __shared__ int wi[32];
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
  return p;
}

// Block b scans the contiguous segment [b*seg, min(n, (b+1)*seg)) in coalesced strides of blockDim.x.
__global__ void argmin_segment_kernel(int n, long long seg, const float* __restrict__ x, float* pv, int* pi) {
  const long long begin = (long long)blockIdx.x * seg;
  long long end = begin + seg;
  if (end > n) end = n;
  Pair p{0.0f, -1};
  long long i = begin + threadIdx.x;
  // two loads in flight; indices seen by one thread increase, so strict '<' keeps the earliest
  for (; i + blockDim.x < end; i += 2 * (long long)blockDim.x) {
    float a = x[i];
    float b = x[i + blockDim.x];
    if (p.i < 0 || a < p.v) { p.v = a; p.i = (int)i; }
    if (b < p.v) { p.v = b; p.i = (int)(i + blockDim.x); }
  }
  if (i < end) {
    float a = x[i];
    if (p.i < 0 || a < p.v) { p.v = a; p.i = (int)i; }
  }
  p = block_argmin(p);
  if (threadIdx.x == 0) { pv[blockIdx.x] = p.v; pi[blockIdx.x] = p.i; }
}

__global__ void argmin_final_kernel(int nparts, const float* pv, const int* pi, int* out) {
  Pair p{0.0f, -1};
  for (int k = threadIdx.x; k < nparts; k += blockDim.x) {
    Pair o{pv[k], pi[k]};
    if (better(o, p)) p = o;
  }
  p = block_argmin(p);
  if (threadIdx.x == 0) out[0] = p.i;
}

extern "C" void argmin_f32(int n, const float* x, int* out, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(out, 0xff, sizeof(int), stream);  // -1
    return;
  }
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  long long maxBlocks = (long long)sms * 4;
  // segment length: a multiple of kThreads, at least 8 elements per thread
  long long per = (long long)kThreads * 8;
  long long seg = ((long long)n + maxBlocks - 1) / maxBlocks;
  seg = ((seg + per - 1) / per) * per;
  int blocks = (int)(((long long)n + seg - 1) / seg);
  void* scratch = nullptr;
  cudaMallocAsync(&scratch, (sizeof(float) + sizeof(int)) * (size_t)blocks, stream);
  float* pv = static_cast<float*>(scratch);
  int* pi = reinterpret_cast<int*>(pv + blocks);
  argmin_segment_kernel<<<blocks, kThreads, 0, stream>>>(n, seg, x, pv, pi);
  argmin_final_kernel<<<1, 1024, 0, stream>>>(blocks, pv, pi, out);
  cudaFreeAsync(scratch, stream);
}

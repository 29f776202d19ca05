// strategy: ballot_popc_atomic — warp-uniform float4 loop; each predicate is counted 32 lanes at a time with __ballot_sync + __popc, warp totals combined in shared memory, one integer atomicAdd per block
#include <cuda_runtime.h>
#include <cstdint>

__global__ void count_ballot_kernel(int n, float thr, const float* __restrict__ x, int* __restrict__ out,
                                    bool vec_ok) {
  __shared__ int warp_part[32];
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long nvec = vec_ok ? n / 4 : 0;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  // Per-warp running count, identical in every lane: each ballot covers 32 elements at once.
  // The loop variable 'base' is the warp's first global thread id, so every lane runs the same
  // number of iterations and the full-mask ballot is safe; out-of-range lanes vote false.
  int wc = 0;
  for (long long base = tid - lane; base < nvec; base += stride) {
    long long v = base + lane;
    bool in = v < nvec;
    float4 q = in ? x4[v] : make_float4(0.f, 0.f, 0.f, 0.f);
    wc += __popc(__ballot_sync(0xffffffffu, in && q.x > thr));
    wc += __popc(__ballot_sync(0xffffffffu, in && q.y > thr));
    wc += __popc(__ballot_sync(0xffffffffu, in && q.z > thr));
    wc += __popc(__ballot_sync(0xffffffffu, in && q.w > thr));
  }
  for (long long base = nvec * 4 + tid - lane; base < n; base += stride) {
    long long i = base + lane;
    bool hit = (i < n) && x[i] > thr;
    wc += __popc(__ballot_sync(0xffffffffu, hit));
  }
  if (lane == 0) warp_part[warp] = wc;
  __syncthreads();
  if (warp == 0) {
    const int nwarps = blockDim.x >> 5;
    int c = (lane < nwarps) ? warp_part[lane] : 0;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
    if (lane == 0 && c != 0) atomicAdd(out, c);
  }
}

extern "C" void count_above_f32(int n, float thr, const float* x, int* out, cudaStream_t stream) {
  cudaMemsetAsync(out, 0, sizeof(int), stream);
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
  count_ballot_kernel<<<blocks, threads, 0, stream>>>(n, thr, x, out, vec_ok);
}

// strategy: ballot_popc_atomic — 2D grid, warp-uniform float4 loop; each predicate is counted 32 lanes at a time with __ballot_sync + __popc, warp totals combined in shared memory, one integer atomicAdd per block
#include <cuda_runtime.h>
#include <cstdint>

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

__global__ void count_ballot_kernel(int batch, int n, float thr, const float* __restrict__ x, int* __restrict__ out) {
  __shared__ int warp_part[32];
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long wbase = tid - lane;  // first global thread id of this warp
  for (int b = blockIdx.y; b < batch; b += gridDim.y) {
    const float* seg = x + (long long)b * n;
    const Split sp = split_segment(seg, n);
    const float4* body = reinterpret_cast<const float4*>(seg + sp.head);
    // Warp running count, identical in every lane. Loop bounds depend only on wbase, so all lanes
    // run the same iterations and the full-mask ballots are safe; out-of-range lanes vote false.
    int wc = __popc(__ballot_sync(0xffffffffu, tid < sp.head && seg[tid < sp.head ? tid : 0] > thr));
    for (long long base = wbase; base < sp.nvec; base += stride) {
      long long v = base + lane;
      bool in = v < sp.nvec;
      float4 q = in ? body[v] : make_float4(0.f, 0.f, 0.f, 0.f);
      wc += __popc(__ballot_sync(0xffffffffu, in && q.x > thr));
      wc += __popc(__ballot_sync(0xffffffffu, in && q.y > thr));
      wc += __popc(__ballot_sync(0xffffffffu, in && q.z > thr));
      wc += __popc(__ballot_sync(0xffffffffu, in && q.w > thr));
    }
    for (long long base = sp.tail0 + wbase; base < n; base += stride) {
      long long i = base + lane;
      bool hit = (i < n) && seg[i < n ? i : 0] > thr;
      wc += __popc(__ballot_sync(0xffffffffu, hit));
    }
    if (lane == 0) warp_part[warp] = wc;
    __syncthreads();
    if (warp == 0) {
      const int nwarps = blockDim.x >> 5;
      int c = (lane < nwarps) ? warp_part[lane] : 0;
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
      if (lane == 0 && c != 0) atomicAdd(out + b, c);
    }
    __syncthreads();  // warp_part is reused for the next segment
  }
}

extern "C" void count_above_f32(int batch, int n, float thr, const float* x, int* out, cudaStream_t stream) {
  if (batch <= 0) return;
  cudaMemsetAsync(out, 0, sizeof(int) * (size_t)batch, stream);
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  int gy = batch < 65535 ? batch : 65535;
  long long per_seg = ((long long)n / 4 + threads - 1) / threads;
  long long budget = (long long)sms * 8 / gy;
  if (budget < 1) budget = 1;
  long long gx = per_seg < budget ? per_seg : budget;
  if (gx < 1) gx = 1;
  count_ballot_kernel<<<dim3((unsigned)gx, (unsigned)gy), threads, 0, stream>>>(batch, n, thr, x, out);
}

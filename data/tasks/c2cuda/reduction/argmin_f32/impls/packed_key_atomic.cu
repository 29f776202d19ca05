// strategy: packed_key_atomic — 2D grid; (order-preserving float bits << 32 | index) packed into one 64-bit key, per-thread / warp-shuffle / block minima, one 64-bit atomicMin per block into a per-segment scratch key
#include <cuda_runtime.h>
#include <cstdint>

// Maps a float to an unsigned int that sorts in the same order; -0.0 is folded onto +0.0 so they tie.
__device__ __forceinline__ unsigned long long make_key(float v, unsigned int idx) {
  unsigned int b = __float_as_uint(v == 0.0f ? 0.0f : v);
  b = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return ((unsigned long long)b << 32) | idx;
}

__device__ __forceinline__ unsigned long long warp_min(unsigned long long k) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    unsigned long long o = __shfl_down_sync(0xffffffffu, k, off);
    k = o < k ? o : k;
  }
  return k;
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

__global__ void argmin_key_kernel(int batch, int n, const float* __restrict__ x, unsigned long long* best) {
  __shared__ unsigned long long warp_part[32];
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int b = blockIdx.y; b < batch; b += gridDim.y) {
    const float* seg = x + (long long)b * n;
    const Split sp = split_segment(seg, n);
    const float4* body = reinterpret_cast<const float4*>(seg + sp.head);
    // The head element (index < sp.head) precedes every body index and body indices grow along
    // the loop, so a strict '<' keeps the earliest index; tail indices come after the body.
    float bv = __int_as_float(0x7f800000);  // +inf
    long long bi = -1;
    if (tid < sp.head) { bv = seg[tid]; bi = tid; }
    for (long long v = tid; v < sp.nvec; v += stride) {
      float4 q = body[v];
      long long i = sp.head + v * 4;
      if (q.x < bv || bi < 0) { bv = q.x; bi = i; }
      if (q.y < bv) { bv = q.y; bi = i + 1; }
      if (q.z < bv) { bv = q.z; bi = i + 2; }
      if (q.w < bv) { bv = q.w; bi = i + 3; }
    }
    for (long long i = sp.tail0 + tid; i < n; i += stride) {
      float v = seg[i];
      if (v < bv || bi < 0) { bv = v; bi = i; }
    }
    unsigned long long k = (bi >= 0) ? make_key(bv, (unsigned int)bi) : ~0ull;
    k = warp_min(k);
    if (lane == 0) warp_part[warp] = k;
    __syncthreads();
    const int nwarps = blockDim.x >> 5;
    k = (threadIdx.x < nwarps) ? warp_part[lane] : ~0ull;
    if (warp == 0) {
      k = warp_min(k);
      if (lane == 0 && k != ~0ull) atomicMin(best + b, k);
    }
    __syncthreads();  // warp_part is reused for the next segment
  }
}

__global__ void argmin_unpack_kernel(int batch, const unsigned long long* best, int* out) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  unsigned long long k = best[b];
  out[b] = (k == ~0ull) ? -1 : (int)(unsigned int)(k & 0xffffffffull);
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
  const int threads = 256;
  int gy = batch < 65535 ? batch : 65535;
  long long per_seg = ((long long)n / 4 + threads - 1) / threads;
  long long budget = (long long)sms * 8 / gy;
  if (budget < 1) budget = 1;
  long long gx = per_seg < budget ? per_seg : budget;
  if (gx < 1) gx = 1;
  unsigned long long* best = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&best), sizeof(unsigned long long) * (size_t)batch, stream);
  cudaMemsetAsync(best, 0xff, sizeof(unsigned long long) * (size_t)batch, stream);
  argmin_key_kernel<<<dim3((unsigned)gx, (unsigned)gy), threads, 0, stream>>>(batch, n, x, best);
  argmin_unpack_kernel<<<(batch + 255) / 256, 256, 0, stream>>>(batch, best, out);
  cudaFreeAsync(best, stream);
}

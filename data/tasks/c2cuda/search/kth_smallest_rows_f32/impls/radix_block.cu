// strategy: radix_block — one 1024-thread block per row runs an MSD radix select: four passes of coalesced reads build a 256-bin shared-memory histogram of the next 8-bit digit among the keys that still match the chosen prefix, and one warp scans the bins with shuffles to pick the digit holding the k-th key
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 1024;

__device__ __forceinline__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float float_of(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key ^ 0x80000000u) : ~key);
}

__global__ void __launch_bounds__(kThreads) kth_radix_block(int n, int k, const float* __restrict__ x, float* __restrict__ out) {
  __shared__ unsigned hist[256];
  __shared__ unsigned s_prefix;
  __shared__ int s_k;
  const float* row = x + (long long)blockIdx.x * n;
  unsigned prefix = 0, mask = 0;
  int kk = k;
  for (int shift = 24; shift >= 0; shift -= 8) {
    if (threadIdx.x < 256) hist[threadIdx.x] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += kThreads) {
      const unsigned key = key_of(__ldg(row + i));
      if ((key & mask) == prefix) atomicAdd(hist + ((key >> shift) & 255u), 1u);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
      const int lane = threadIdx.x;
      unsigned c[8], local = 0;
#pragma unroll
      for (int q = 0; q < 8; ++q) {
        c[q] = hist[lane * 8 + q];
        local += c[q];
      }
      unsigned incl = local;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const unsigned t = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += t;
      }
      unsigned before = incl - local;
      // exactly one lane holds the bin where the running count first reaches kk
      if (before < (unsigned)kk && (unsigned)kk <= incl) {
        int q = 0;
        while (before + c[q] < (unsigned)kk) before += c[q++];
        s_prefix = prefix | ((unsigned)(lane * 8 + q) << shift);
        s_k = kk - (int)before;
      }
    }
    __syncthreads();
    prefix = s_prefix;
    kk = s_k;
    mask |= 255u << shift;
  }
  if (threadIdx.x == 0) out[blockIdx.x] = float_of(prefix);
}

}  // namespace

extern "C" void kth_smallest_rows_f32(int batch, int n, int k, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0) return;
  kth_radix_block<<<batch, kThreads, 0, stream>>>(n, k, x, out);
}

// strategy: reg_tile8 — index split as (hi:3 | mid | lo:3): each thread owns one mid value and moves an 8x8 micro-tile entirely in registers, reading 8 rows of 32 contiguous bytes (two uint4 loads each, coalesced across the warp) and writing 8 full, aligned 32-byte sectors; no shared memory, no synchronisation; rows shorter than 64 use a direct gather
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ constexpr int rev3(int x) { return ((x & 1) << 2) | (x & 2) | ((x >> 2) & 1); }

__global__ void __launch_bounds__(128)
bitrev_reg8_rows_kernel(int logn, const uint4* __restrict__ in, uint4* __restrict__ out) {
  const int mbits = logn - 6;
  const unsigned mid = blockIdx.x * blockDim.x + threadIdx.x;
  if (mid >= (1u << mbits)) return;
  const long long n4 = 1LL << (logn - 2);         // row length in uint4 units
  const long long base = (long long)blockIdx.y * n4;
  const int hs = logn - 5;                          // hi stride (2^(logn-3) elements) in uint4 units, as a shift
  uint32_t v[8][8];
#pragma unroll
  for (int hi = 0; hi < 8; ++hi) {
    const uint4* p = in + base + ((long long)hi << hs) + 2LL * mid;
    const uint4 a = __ldg(p), b = __ldg(p + 1);
    v[hi][0] = a.x; v[hi][1] = a.y; v[hi][2] = a.z; v[hi][3] = a.w;
    v[hi][4] = b.x; v[hi][5] = b.y; v[hi][6] = b.z; v[hi][7] = b.w;
  }
  const unsigned rmid = mbits == 0 ? 0u : __brev(mid) >> (32 - mbits);
#pragma unroll
  for (int rlo = 0; rlo < 8; ++rlo) {
    const int lo = rev3(rlo);
    uint4* q = out + base + ((long long)rlo << hs) + 2LL * rmid;
    q[0] = make_uint4(v[rev3(0)][lo], v[rev3(1)][lo], v[rev3(2)][lo], v[rev3(3)][lo]);
    q[1] = make_uint4(v[rev3(4)][lo], v[rev3(5)][lo], v[rev3(6)][lo], v[rev3(7)][lo]);
  }
}

__global__ void bitrev_gather_kernel(long long total, int logn, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= total) return;
  const unsigned j = (unsigned)(g & ((1LL << logn) - 1));
  const unsigned rj = logn == 0 ? 0u : __brev(j) >> (32 - logn);
  out[g] = __ldg(in + ((g >> logn) << logn) + rj);
}

}  // namespace

extern "C" void bitrev_permute(int batch, int logn, const uint32_t* in, uint32_t* out, cudaStream_t stream) {
  const long long total = (long long)batch << logn;
  if (total <= 0) return;
  if (logn >= 6) {
    const unsigned mids = 1u << (logn - 6);
    const unsigned threads = mids < 128u ? mids : 128u;
    dim3 grid((mids + threads - 1) / threads, (unsigned)batch);
    bitrev_reg8_rows_kernel<<<grid, threads, 0, stream>>>(logn, reinterpret_cast<const uint4*>(in),
                                                          reinterpret_cast<uint4*>(out));
  } else {
    bitrev_gather_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(total, logn, in, out);
  }
}

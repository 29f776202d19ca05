// strategy: smem_tile — index split as (hi:5 | mid | lo:5): a 32x8 CTA moves one 32x32 tile (fixed mid, all hi/lo) with reads coalesced along lo, staged in padded shared memory, and writes coalesced along rev(hi) in the destination (rev(i) = rev(lo) | rev(mid) | rev(hi)); rows shorter than 2^10 use a direct __brev gather
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ unsigned rev_bits(unsigned x, int bits) { return bits == 0 ? 0u : __brev(x) >> (32 - bits); }

__global__ void __launch_bounds__(256)
bitrev_tile_kernel(int logn, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  __shared__ uint32_t tile[32][33];
  const int mbits = logn - 10;
  const long long n = 1LL << logn;
  const unsigned mid = blockIdx.x;
  const long long base = (long long)blockIdx.y * n;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int hs = logn - 5;  // position of the hi field
  const uint32_t* src = in + base + ((long long)mid << 5);
#pragma unroll
  for (int hi = ty; hi < 32; hi += 8) tile[hi][tx] = __ldg(src + ((long long)hi << hs) + tx);
  __syncthreads();
  uint32_t* dst = out + base + ((long long)rev_bits(mid, mbits) << 5);
  const int rtx = (int)rev_bits(tx, 5);
#pragma unroll
  for (int rlo = ty; rlo < 32; rlo += 8) dst[((long long)rlo << hs) + tx] = tile[rtx][rev_bits(rlo, 5)];
}

__global__ void bitrev_small_kernel(long long total, int logn, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= total) return;
  const long long row = g >> logn;
  const unsigned j = (unsigned)(g & ((1LL << logn) - 1));
  out[g] = __ldg(in + (row << logn) + rev_bits(j, logn));
}

}  // namespace

extern "C" void bitrev_permute(int batch, int logn, const uint32_t* in, uint32_t* out, cudaStream_t stream) {
  const long long total = (long long)batch << logn;
  if (total <= 0) return;
  if (logn >= 10) {
    const dim3 grid(1u << (logn - 10), (unsigned)batch), block(32, 8);
    bitrev_tile_kernel<<<grid, block, 0, stream>>>(logn, in, out);
  } else {
    const int threads = 256;
    bitrev_small_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(total, logn, in, out);
  }
}

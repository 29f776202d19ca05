// strategy: warp_combine — one warp per block: each lane CRCs its own 1/32 contiguous segment from register 0 with a shared byte table, then the 32 partial CRCs are merged by a 5-level shuffle tree using GF(2) multiplication by x^(8*len) mod P (CRC linearity), lane 0 folds in the init value and the <32-byte tail
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr uint32_t kPoly = 0xEDB88320u;
constexpr int kWarps = 8;

struct Shifts {
  uint32_t m[6];  // m[k] = x^(8*L*2^k) mod P, reflected representation
};

__host__ __device__ inline uint32_t times_x(uint32_t b) { return (b >> 1) ^ (kPoly & (0u - (b & 1u))); }

// product of two residues mod P; the reflected bit 31 is the x^0 coefficient
__host__ __device__ inline uint32_t gf2_mulmod(uint32_t a, uint32_t b) {
  uint32_t p = 0;
  for (int i = 0; i < 32; ++i) {
    if (a & (0x80000000u >> i)) p ^= b;
    b = times_x(b);
  }
  return p;
}

__global__ void __launch_bounds__(kWarps * 32)
crc32_warp_kernel(int nblocks, int bs, const uint8_t* __restrict__ data, uint32_t* __restrict__ crc, Shifts sh) {
  __shared__ uint32_t t0[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    uint32_t c = (uint32_t)i;
    for (int k = 0; k < 8; ++k) c = times_x(c);
    t0[i] = c;
  }
  __syncthreads();

  const int lane = threadIdx.x & 31;
  const long long blk = (long long)blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (blk >= nblocks) return;  // warp-uniform
  const int seg = bs >> 5;
  const uint8_t* base = data + blk * (long long)bs;
  const uint8_t* p = base + (long long)lane * seg;
  const uint8_t* e = p + seg;

  uint32_t r = 0;  // raw register update of this lane's segment starting from 0
  while (p < e && (reinterpret_cast<uintptr_t>(p) & 3u) != 0) r = t0[(r ^ __ldg(p++)) & 0xFFu] ^ (r >> 8);
  for (; p + 4 <= e; p += 4) {
    uint32_t w = __ldg(reinterpret_cast<const uint32_t*>(p));
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      r = t0[(r ^ w) & 0xFFu] ^ (r >> 8);
      w >>= 8;
    }
  }
  while (p < e) r = t0[(r ^ __ldg(p++)) & 0xFFu] ^ (r >> 8);

  // merge: at level k, lane l (multiple of 2^(k+1)) owns 2^k segments and appends its right neighbour's 2^k
#pragma unroll
  for (int k = 0; k < 5; ++k) {
    const uint32_t right = __shfl_down_sync(0xffffffffu, r, 1 << k);
    if ((lane & ((2 << k) - 1)) == 0) r = gf2_mulmod(r, sh.m[k]) ^ right;
  }
  if (lane == 0) {
    uint32_t c = gf2_mulmod(0xFFFFFFFFu, sh.m[5]) ^ r;  // init value pushed through all 32 segments
    const uint8_t* q = base + 32LL * seg;
    const uint8_t* qe = base + bs;
    while (q < qe) c = t0[(c ^ __ldg(q++)) & 0xFFu] ^ (c >> 8);
    crc[blk] = ~c;
  }
}

}  // namespace

extern "C" void crc32_blocks(int nblocks, int bs, const uint8_t* data, uint32_t* crc, cudaStream_t stream) {
  if (nblocks <= 0) return;
  Shifts sh;
  // x^(8*L) by square-and-multiply, then repeated squaring for the doubled segment lengths
  uint32_t acc = 0x80000000u, base = 0x00800000u;  // x^0, x^8
  for (unsigned e = (unsigned)(bs >> 5); e != 0; e >>= 1) {
    if (e & 1u) acc = gf2_mulmod(acc, base);
    base = gf2_mulmod(base, base);
  }
  sh.m[0] = acc;
  for (int k = 1; k < 6; ++k) sh.m[k] = gf2_mulmod(sh.m[k - 1], sh.m[k - 1]);
  const long long grid = ((long long)nblocks + kWarps - 1) / kWarps;
  crc32_warp_kernel<<<(unsigned)grid, kWarps * 32, 0, stream>>>(nblocks, bs, data, crc, sh);
}

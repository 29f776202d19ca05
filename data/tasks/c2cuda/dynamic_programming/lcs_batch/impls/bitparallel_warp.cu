// strategy: bitparallel_warp — one warp per pair, lane w owns bit-vector word w of a (up to 1024 symbols); the multi-word addition of the bit-vector LCS recurrence resolves its carries across lanes with two __ballot_sync votes and one carry-lookahead add, a is packed into bit-planes with coalesced loads + ballots and b is broadcast by __shfl_sync
#include <cuda_runtime.h>
#include <stdint.h>

#define FULL_MASK 0xffffffffu
#define WPB 4

__global__ void __launch_bounds__(WPB * 32) lcs_warp_kernel(int P, int La, int Lb, const unsigned char* __restrict__ a,
                                                           const unsigned char* __restrict__ b, int* __restrict__ lcs) {
  const int lane = threadIdx.x & 31;
  const int p = blockIdx.x * WPB + (threadIdx.x >> 5);
  if (p >= P) return;  // uniform per warp
  const unsigned char* s = a + (size_t)p * La;
  const unsigned char* t = b + (size_t)p * Lb;
  // pack a: word w collects symbols [32w, 32w+32); lane w keeps word w
  uint32_t V = 0, A0 = 0, A1 = 0;
  const int nw = (La + 31) / 32;
  for (int w = 0; w < nw; ++w) {
    const int i = w * 32 + lane;
    const bool ok = i < La;
    const uint32_t c = ok ? (uint32_t)__ldg(s + i) : 0u;
    const uint32_t bv = __ballot_sync(FULL_MASK, ok);
    const uint32_t b0 = __ballot_sync(FULL_MASK, ok && (c & 1u));
    const uint32_t b1 = __ballot_sync(FULL_MASK, ok && (c & 2u));
    if (lane == w) {
      V = bv;
      A0 = b0;
      A1 = b1;
    }
  }
  // lanes >= nw hold zero words: like the bits above La they only ever receive carries from below
  for (int j0 = 0; j0 < Lb; j0 += 32) {
    const int jj = j0 + lane;
    const uint32_t mine = jj < Lb ? (uint32_t)__ldg(t + jj) : 0u;
    const int cnt = Lb - j0 < 32 ? Lb - j0 : 32;
    for (int q = 0; q < cnt; ++q) {
      const uint32_t c = __shfl_sync(FULL_MASK, mine, q);
      const uint32_t y0 = 0u - (c & 1u), y1 = 0u - ((c >> 1) & 1u);
      const uint32_t M = ~(A0 ^ y0) & ~(A1 ^ y1);
      const uint32_t U = V & M;
      const uint32_t sum = V + U;
      const uint32_t G = __ballot_sync(FULL_MASK, sum < U);            // word generates a carry
      const uint32_t Pp = __ballot_sync(FULL_MASK, sum == 0xffffffffu);  // word propagates an incoming carry
      const uint32_t cin = ((((G | Pp) + G) ^ Pp) >> lane) & 1u;         // carry-lookahead across the 32 words
      V = (sum + cin) | (V & ~M);
    }
  }
  const int lo = lane * 32;
  uint32_t mask = 0;
  if (lo + 32 <= La) mask = 0xffffffffu;
  else if (lo < La) mask = (1u << (La - lo)) - 1u;
  int ones = __popc(V & mask);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) ones += __shfl_xor_sync(FULL_MASK, ones, off);
  if (lane == 0) lcs[p] = La - ones;
}

extern "C" void lcs_batch(int P, int La, int Lb, const unsigned char* a, const unsigned char* b, int* lcs,
                          cudaStream_t stream) {
  if (P <= 0) return;
  lcs_warp_kernel<<<(P + WPB - 1) / WPB, WPB * 32, 0, stream>>>(P, La, Lb, a, b, lcs);
}

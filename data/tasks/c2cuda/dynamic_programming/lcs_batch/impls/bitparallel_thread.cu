// strategy: bitparallel_thread — one thread per pair runs the bit-vector LCS recurrence V = (V + (V & M_y)) | (V & ~M_y) over a in 32-bit words held in registers (match masks rebuilt from two bit-planes of a), 32 DP cells per word operation; LCS = La - popcount(V)
#include <cuda_runtime.h>
#include <stdint.h>

template <int NW>
__global__ void __launch_bounds__(128) lcs_bits_kernel(int P, int La, int Lb, const unsigned char* __restrict__ a,
                                                       const unsigned char* __restrict__ b, int* __restrict__ lcs) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  const unsigned char* s = a + (size_t)p * La;
  const unsigned char* t = b + (size_t)p * Lb;
  uint32_t V[NW], A0[NW], A1[NW];
#pragma unroll
  for (int w = 0; w < NW; ++w) {
    uint32_t v = 0, x0 = 0, x1 = 0;
    for (int k = 0; k < 32; ++k) {
      const int i = w * 32 + k;
      if (i < La) {
        const uint32_t c = __ldg(s + i);
        v |= 1u << k;
        x0 |= (c & 1u) << k;
        x1 |= ((c >> 1) & 1u) << k;
      }
    }
    V[w] = v;  // bits at positions >= La start 0; carries only ever move upwards, so they never disturb valid bits
    A0[w] = x0;
    A1[w] = x1;
  }
  for (int j = 0; j < Lb; ++j) {
    const uint32_t c = __ldg(t + j);
    const uint32_t y0 = 0u - (c & 1u), y1 = 0u - ((c >> 1) & 1u);
    uint32_t carry = 0;
#pragma unroll
    for (int w = 0; w < NW; ++w) {
      const uint32_t M = ~(A0[w] ^ y0) & ~(A1[w] ^ y1);
      const uint32_t U = V[w] & M;
      const uint32_t s1 = V[w] + U;
      const uint32_t c1 = s1 < U;
      const uint32_t s2 = s1 + carry;
      const uint32_t c2 = s2 < s1;
      V[w] = s2 | (V[w] & ~M);
      carry = c1 | c2;
    }
  }
  int ones = 0;
#pragma unroll
  for (int w = 0; w < NW; ++w) {
    const int lo = w * 32;
    uint32_t mask = 0;
    if (lo + 32 <= La) mask = 0xffffffffu;
    else if (lo < La) mask = (1u << (La - lo)) - 1u;
    ones += __popc(V[w] & mask);
  }
  lcs[p] = La - ones;
}

template <int NW>
static void launch(int P, int La, int Lb, const unsigned char* a, const unsigned char* b, int* lcs, cudaStream_t st) {
  const int threads = 128;
  lcs_bits_kernel<NW><<<(P + threads - 1) / threads, threads, 0, st>>>(P, La, Lb, a, b, lcs);
}

extern "C" void lcs_batch(int P, int La, int Lb, const unsigned char* a, const unsigned char* b, int* lcs,
                          cudaStream_t stream) {
  if (P <= 0) return;
  const int nw = (La + 31) / 32;
  if (nw <= 1) launch<1>(P, La, Lb, a, b, lcs, stream);
  else if (nw <= 2) launch<2>(P, La, Lb, a, b, lcs, stream);
  else if (nw <= 4) launch<4>(P, La, Lb, a, b, lcs, stream);
  else if (nw <= 8) launch<8>(P, La, Lb, a, b, lcs, stream);
  else if (nw <= 16) launch<16>(P, La, Lb, a, b, lcs, stream);
  else launch<32>(P, La, Lb, a, b, lcs, stream);
}

// strategy: regs_unrolled — one thread per message, fully unrolled 64 rounds with a 16-word rolling message schedule kept in registers, round constants in __constant__ memory (warp-uniform broadcast), funnel-shift rotates, each block fetched with four 16-byte vector loads
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__constant__ uint32_t c_round[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

__device__ __forceinline__ uint32_t ror(uint32_t x, unsigned r) { return __funnelshift_r(x, x, r); }

__global__ void __launch_bounds__(128)
sha256_regs_kernel(int nmsg, int nblk, const uint4* __restrict__ words, uint4* __restrict__ out) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= nmsg) return;
  uint32_t h0 = 0x6a09e667u, h1 = 0xbb67ae85u, h2 = 0x3c6ef372u, h3 = 0xa54ff53au;
  uint32_t h4 = 0x510e527fu, h5 = 0x9b05688cu, h6 = 0x1f83d9abu, h7 = 0x5be0cd19u;
  const uint4* src = words + (long long)m * nblk * 4;
  for (int j = 0; j < nblk; ++j, src += 4) {
    uint32_t w[16];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const uint4 v = __ldg(src + q);
      w[4 * q + 0] = v.x;
      w[4 * q + 1] = v.y;
      w[4 * q + 2] = v.z;
      w[4 * q + 3] = v.w;
    }
    uint32_t a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;
#pragma unroll
    for (int t = 0; t < 64; ++t) {
      if (t >= 16) {
        const uint32_t x15 = w[(t + 1) & 15], x2 = w[(t + 14) & 15];
        w[t & 15] += (ror(x15, 7) ^ ror(x15, 18) ^ (x15 >> 3)) + w[(t + 9) & 15] +
                     (ror(x2, 17) ^ ror(x2, 19) ^ (x2 >> 10));
      }
      const uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + (g ^ (e & (f ^ g))) + c_round[t] + w[t & 15];
      const uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) | (c & (a | b)));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h0 += a; h1 += b; h2 += c; h3 += d;
    h4 += e; h5 += f; h6 += g; h7 += hh;
  }
  out[2LL * m] = make_uint4(h0, h1, h2, h3);
  out[2LL * m + 1] = make_uint4(h4, h5, h6, h7);
}

}  // namespace

extern "C" void sha256_chain(int nmsg, int nblk, const uint32_t* words, uint32_t* out, cudaStream_t stream) {
  if (nmsg <= 0) return;
  const int threads = 128;
  sha256_regs_kernel<<<(nmsg + threads - 1) / threads, threads, 0, stream>>>(
      nmsg, nblk, reinterpret_cast<const uint4*>(words), reinterpret_cast<uint4*>(out));
}

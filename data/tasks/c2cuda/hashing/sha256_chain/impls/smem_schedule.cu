// strategy: smem_schedule — a CTA of 64 threads owns 64 messages; each chained block is fetched cooperatively (4 neighbouring threads read one 64-byte block, coalesced) into a transposed shared-memory tile, each thread expands its 64-word schedule in place in shared memory (column per message, conflict-free), then runs the rounds from it
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kMsgs = 64;        // messages (threads) per CTA
constexpr int kPitch = kMsgs + 1;

__constant__ uint32_t k_sched_round[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

__device__ __forceinline__ uint32_t rr(uint32_t x, unsigned r) { return (x >> r) | (x << (32u - r)); }

__global__ void __launch_bounds__(kMsgs)
sha256_smem_kernel(int nmsg, int nblk, const uint4* __restrict__ words, uint32_t* __restrict__ out) {
  __shared__ uint32_t sched[64 * kPitch];  // sched[t * kPitch + msg]
  const int tid = threadIdx.x;
  const long long m0 = (long long)blockIdx.x * kMsgs;
  const long long m = m0 + tid;
  uint32_t H[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  for (int j = 0; j < nblk; ++j) {
    __syncthreads();  // previous block's schedule fully consumed
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int idx = q * kMsgs + tid;  // which 16-byte quarter of which message
      const int msg = idx >> 2, part = idx & 3;
      if (m0 + msg < nmsg) {
        const uint4 v = __ldg(words + ((m0 + msg) * nblk + j) * 4 + part);
        sched[(4 * part + 0) * kPitch + msg] = v.x;
        sched[(4 * part + 1) * kPitch + msg] = v.y;
        sched[(4 * part + 2) * kPitch + msg] = v.z;
        sched[(4 * part + 3) * kPitch + msg] = v.w;
      } else {  // past the last message: defined (unused) words
        sched[(4 * part + 0) * kPitch + msg] = 0u;
        sched[(4 * part + 1) * kPitch + msg] = 0u;
        sched[(4 * part + 2) * kPitch + msg] = 0u;
        sched[(4 * part + 3) * kPitch + msg] = 0u;
      }
    }
    __syncthreads();
    uint32_t* col = sched + tid;
    for (int t = 16; t < 64; ++t) {
      const uint32_t a15 = col[(t - 15) * kPitch], a2 = col[(t - 2) * kPitch];
      col[t * kPitch] = col[(t - 16) * kPitch] + (rr(a15, 7) ^ rr(a15, 18) ^ (a15 >> 3)) + col[(t - 7) * kPitch] +
                        (rr(a2, 17) ^ rr(a2, 19) ^ (a2 >> 10));
    }
    uint32_t s0 = H[0], s1 = H[1], s2 = H[2], s3 = H[3], s4 = H[4], s5 = H[5], s6 = H[6], s7 = H[7];
#pragma unroll 8
    for (int t = 0; t < 64; ++t) {
      const uint32_t x = s7 + (rr(s4, 6) ^ rr(s4, 11) ^ rr(s4, 25)) + ((s4 & s5) ^ (~s4 & s6)) + k_sched_round[t] +
                         col[t * kPitch];
      const uint32_t y = (rr(s0, 2) ^ rr(s0, 13) ^ rr(s0, 22)) + ((s0 & s1) ^ (s0 & s2) ^ (s1 & s2));
      s7 = s6; s6 = s5; s5 = s4; s4 = s3 + x;
      s3 = s2; s2 = s1; s1 = s0; s0 = x + y;
    }
    H[0] += s0; H[1] += s1; H[2] += s2; H[3] += s3;
    H[4] += s4; H[5] += s5; H[6] += s6; H[7] += s7;
  }
  if (m < nmsg) {
    uint4* dst = reinterpret_cast<uint4*>(out + m * 8);
    dst[0] = make_uint4(H[0], H[1], H[2], H[3]);
    dst[1] = make_uint4(H[4], H[5], H[6], H[7]);
  }
}

}  // namespace

extern "C" void sha256_chain(int nmsg, int nblk, const uint32_t* words, uint32_t* out, cudaStream_t stream) {
  if (nmsg <= 0) return;
  const long long grid = ((long long)nmsg + kMsgs - 1) / kMsgs;
  sha256_smem_kernel<<<(unsigned)grid, kMsgs, 0, stream>>>(nmsg, nblk, reinterpret_cast<const uint4*>(words), out);
}

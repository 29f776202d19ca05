// strategy: naive (weak) — one thread per message, full 64-word schedule in a local-memory array, round constants read from global memory, rolled loops, scalar strided word loads (uncoalesced)
#include <cuda_runtime.h>
#include <stdint.h>

__device__ const uint32_t g_round[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

__device__ uint32_t rotr_naive(uint32_t x, int r) { return (x >> r) | (x << (32 - r)); }

__global__ void sha256_naive_kernel(int nmsg, int nblk, const uint32_t* words, uint32_t* out) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= nmsg) return;
  uint32_t h[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  for (int j = 0; j < nblk; ++j) {
    const uint32_t* blk = words + ((long long)m * nblk + j) * 16;
    uint32_t w[64];
#pragma unroll 1
    for (int t = 0; t < 16; ++t) w[t] = blk[t];
#pragma unroll 1
    for (int t = 16; t < 64; ++t)
      w[t] = w[t - 16] + (rotr_naive(w[t - 15], 7) ^ rotr_naive(w[t - 15], 18) ^ (w[t - 15] >> 3)) + w[t - 7] +
             (rotr_naive(w[t - 2], 17) ^ rotr_naive(w[t - 2], 19) ^ (w[t - 2] >> 10));
    uint32_t v[8];
#pragma unroll 1
    for (int i = 0; i < 8; ++i) v[i] = h[i];
#pragma unroll 1
    for (int t = 0; t < 64; ++t) {
      const uint32_t t1 = v[7] + (rotr_naive(v[4], 6) ^ rotr_naive(v[4], 11) ^ rotr_naive(v[4], 25)) +
                          ((v[4] & v[5]) ^ (~v[4] & v[6])) + g_round[t] + w[t];
      const uint32_t t2 = (rotr_naive(v[0], 2) ^ rotr_naive(v[0], 13) ^ rotr_naive(v[0], 22)) +
                          ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
      for (int i = 7; i > 0; --i) v[i] = v[i - 1];
      v[4] += t1;
      v[0] = t1 + t2;
    }
#pragma unroll 1
    for (int i = 0; i < 8; ++i) h[i] += v[i];
  }
  for (int i = 0; i < 8; ++i) out[(long long)m * 8 + i] = h[i];
}

extern "C" void sha256_chain(int nmsg, int nblk, const uint32_t* words, uint32_t* out, cudaStream_t stream) {
  if (nmsg <= 0) return;
  const int threads = 128;
  sha256_naive_kernel<<<(nmsg + threads - 1) / threads, threads, 0, stream>>>(nmsg, nblk, words, out);
}

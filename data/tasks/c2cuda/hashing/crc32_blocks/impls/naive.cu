// strategy: naive (weak) — one thread per block, bit-at-a-time CRC over single-byte global loads (8 dependent shift/xor steps per byte, uncoalesced across the warp)
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void crc32_naive_kernel(int nblocks, int bs, const uint8_t* data, uint32_t* crc) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nblocks) return;
  const uint8_t* p = data + (long long)b * bs;
  uint32_t c = 0xFFFFFFFFu;
  for (int i = 0; i < bs; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : (c >> 1);
  }
  crc[b] = ~c;
}

extern "C" void crc32_blocks(int nblocks, int bs, const uint8_t* data, uint32_t* crc, cudaStream_t stream) {
  if (nblocks <= 0) return;
  const int threads = 128;
  crc32_naive_kernel<<<(nblocks + threads - 1) / threads, threads, 0, stream>>>(nblocks, bs, data, crc);
}

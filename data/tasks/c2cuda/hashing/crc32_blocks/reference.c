/* CRC-32 (reflected 0xEDB88320, init/xorout 0xFFFFFFFF) of independent fixed-size blocks, bit at a time. */
#include <stdint.h>

void crc32_blocks(int nblocks, int bs, const uint8_t* data, uint32_t* crc) {
  for (int b = 0; b < nblocks; ++b) {
    const uint8_t* p = data + (long long)b * bs;
    uint32_t c = 0xFFFFFFFFu;
    for (int i = 0; i < bs; ++i) {
      c ^= p[i];
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    crc[b] = ~c;
  }
}

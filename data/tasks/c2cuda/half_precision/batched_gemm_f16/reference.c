/* batched fp16 GEMM (masked fp16 patterns packed two per uint32), double accumulation, float output. */
#include <math.h>
#include <stdint.h>

static double half_value(const unsigned int* buf, long long e) {
  uint32_t p = (buf[e >> 1] >> ((e & 1) ? 16 : 0)) & 0xFFFFu;
  p = (p & 0x8FFFu) | 0x3000u;                  /* exponent field 12..15: a normal half */
  uint32_t ex = (p >> 10) & 31u, m = p & 1023u;
  double v = ldexp((double)(1024u + m), (int)ex - 25);
  return (p & 0x8000u) ? -v : v;
}

void batched_gemm_f16(int batch, int M, int N, int K, const unsigned int* A, const unsigned int* B, float* C) {
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double acc = 0.0;
        for (int k = 0; k < K; ++k)
          acc += half_value(A, ((long long)b * M + i) * K + k) * half_value(B, ((long long)b * K + k) * N + j);
        C[((long long)b * M + i) * N + j] = (float)acc;
      }
}

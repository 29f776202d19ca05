/* Causal linear attention (elu+1 feature map) per head, as a running state in double:
   S += phi(k_i) v_i^T, z += phi(k_i), out_i = phi(q_i)^T S / phi(q_i) . z. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static double lin_phi(float x) { return x > 0.0f ? (double)x + 1.0 : exp((double)x); }

void linear_causal_attention_f32(int heads, int seq, int d, const float* Q, const float* K, const float* V,
                                 float* out) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  double* S = (double*)malloc((size_t)d * (size_t)d * sizeof(double));
  double* z = (double*)malloc((size_t)d * sizeof(double));
  double* pq = (double*)malloc((size_t)d * sizeof(double));
  double* pk = (double*)malloc((size_t)d * sizeof(double));
  if (!S || !z || !pq || !pk) {
    free(S);
    free(z);
    free(pq);
    free(pk);
    return;
  }
  for (int h = 0; h < heads; ++h) {
    const size_t base = (size_t)h * (size_t)seq * (size_t)d;
    for (size_t e = 0; e < (size_t)d * (size_t)d; ++e) S[e] = 0.0;
    for (int r = 0; r < d; ++r) z[r] = 0.0;
    for (int i = 0; i < seq; ++i) {
      const size_t row = base + (size_t)i * (size_t)d;
      for (int r = 0; r < d; ++r) {
        pk[r] = lin_phi(K[row + r]);
        pq[r] = lin_phi(Q[row + r]);
        z[r] += pk[r];
      }
      for (int r = 0; r < d; ++r)
        for (int c = 0; c < d; ++c) S[(size_t)r * d + c] += pk[r] * (double)V[row + c];
      double den = 0.0;
      for (int r = 0; r < d; ++r) den += pq[r] * z[r];
      for (int c = 0; c < d; ++c) {
        double num = 0.0;
        for (int r = 0; r < d; ++r) num += pq[r] * S[(size_t)r * d + c];
        out[row + c] = (float)(num / den);
      }
    }
  }
  free(S);
  free(z);
  free(pq);
  free(pk);
}

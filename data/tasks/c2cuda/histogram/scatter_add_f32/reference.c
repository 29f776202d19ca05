#include <stdlib.h>

/* Scatter-add: out[j] = sum of val[i] for idx[i] == j (j in [0, m)), accumulated in double.
 * Indices outside [0, m) are ignored (the inputs have none). */
void scatter_add_f32(int n, int m, const int* idx, const float* val, float* out) {
  double* acc = (double*)calloc((size_t)(m > 0 ? m : 1), sizeof(double));
  if (!acc) return;
  for (int i = 0; i < n; ++i) {
    const int j = idx[i];
    if (j >= 0 && j < m) acc[j] += (double)val[i];
  }
  for (int j = 0; j < m; ++j) out[j] = (float)acc[j];
  free(acc);
}

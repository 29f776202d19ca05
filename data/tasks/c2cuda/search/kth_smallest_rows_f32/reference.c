/* k-th smallest (1-based) of every row, by sorting a copy of the row. */
#include <stdlib.h>
#include <string.h>

static int cmp_float(const void* p, const void* q) {
  const float a = *(const float*)p, b = *(const float*)q;
  return (a > b) - (a < b);
}

void kth_smallest_rows_f32(int batch, int n, int k, const float* x, float* out) {
  float* row = (float*)malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  if (!row) return;
  for (int r = 0; r < batch; ++r) {
    memcpy(row, x + (long long)r * n, sizeof(float) * (size_t)n);
    qsort(row, (size_t)n, sizeof(float), cmp_float);
    out[r] = row[k - 1];
  }
  free(row);
}

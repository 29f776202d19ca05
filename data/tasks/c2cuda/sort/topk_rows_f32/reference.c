/* Per row: the k largest values, sorted descending (kept in a sorted buffer of size k). */
#include <stddef.h>

void topk_rows_f32(int batch, int n, int k, const float* x, float* out) {
  for (int b = 0; b < batch; ++b) {
    const float* row = x + (size_t)b * (size_t)n;
    float* top = out + (size_t)b * (size_t)k;
    int cnt = 0;
    for (int i = 0; i < n; ++i) {
      float v = row[i];
      if (cnt == k && !(v > top[k - 1])) continue;
      int pos = (cnt < k) ? cnt++ : k - 1;
      while (pos > 0 && top[pos - 1] < v) {
        top[pos] = top[pos - 1];
        --pos;
      }
      top[pos] = v;
    }
  }
}

/* loss[r] = max_r + log(sum_c exp(logits[r][c] - max_r)) - logits[r][labels[r]], in double. */
#include <math.h>
#include <stddef.h>

void cross_entropy_f32(int rows, int classes, const float* logits, const int* labels, float* loss) {
  for (int r = 0; r < rows; ++r) {
    const float* z = logits + (size_t)r * (size_t)classes;
    double mx = (double)z[0];
    for (int c = 1; c < classes; ++c)
      if ((double)z[c] > mx) mx = (double)z[c];
    double sum = 0.0;
    for (int c = 0; c < classes; ++c) sum += exp((double)z[c] - mx);
    loss[r] = (float)(mx + log(sum) - (double)z[labels[r]]);
  }
}

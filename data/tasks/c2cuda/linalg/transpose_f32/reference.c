/* out[j*rows + i] = in[i*cols + j]: out is the cols x rows transpose of the rows x cols input. */
#include <stddef.h>

void transpose_f32(int rows, int cols, const float* in, float* out) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) out[(size_t)j * (size_t)rows + (size_t)i] = in[(size_t)i * (size_t)cols + (size_t)j];
}

/* Batched int8 GEMV, int32 accumulation: y[b][r] = sum_j A[r][j] * x[b][j]. */
void gemv_i8_batched(int rows, int k, int batch, const signed char* a, const signed char* x, int* y) {
  for (int b = 0; b < batch; ++b) {
    const signed char* xb = x + (long long)b * k;
    for (int r = 0; r < rows; ++r) {
      const signed char* ar = a + (long long)r * k;
      int acc = 0;
      for (int j = 0; j < k; ++j) acc += (int)ar[j] * (int)xb[j];
      y[(long long)b * rows + r] = acc;
    }
  }
}

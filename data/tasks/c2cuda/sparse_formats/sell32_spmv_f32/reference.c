/* SELL-32 (sliced ELLPACK, slice height 32, slot-major inside a slice) SpMV, double accumulation. */
void sell32_spmv_f32(int rows, int cols, int nslots, const int* sliceptr, const int* colidx, const float* vals,
                     const float* x, float* y) {
  (void)cols;
  (void)nslots;
  for (int r = 0; r < rows; ++r) {
    const int s = r / 32, i = r % 32;
    double acc = 0.0;
    for (int j = sliceptr[s]; j < sliceptr[s + 1]; ++j) {
      const long long k = 32LL * j + i;
      const int c = colidx[k];
      if (c >= 0) acc += (double)vals[k] * (double)x[c];
    }
    y[r] = (float)acc;
  }
}

/* Stable argsort of each short row by insertion sort on (value, column) pairs. */
void argsort_rows_small(int rows, int w, const float* x, int* out) {
  for (int r = 0; r < rows; ++r) {
    const float* row = x + (long long)r * w;
    int* o = out + (long long)r * w;
    for (int j = 0; j < w; ++j) {
      /* insert column j after every earlier column whose value is <= row[j] (keeps stability) */
      int p = j;
      while (p > 0 && row[o[p - 1]] > row[j]) {
        o[p] = o[p - 1];
        --p;
      }
      o[p] = j;
    }
  }
}

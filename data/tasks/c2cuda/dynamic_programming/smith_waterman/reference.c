/* Smith-Waterman local alignment score matrix, linear gap penalty, row by row. */
void smith_waterman(int n, int m, int match, int mismatch, int gap, const unsigned char* a,
                    const unsigned char* b, int* H) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      int diag = (i > 0 && j > 0) ? H[(long long)(i - 1) * m + (j - 1)] : 0;
      int up = (i > 0) ? H[(long long)(i - 1) * m + j] : 0;
      int left = (j > 0) ? H[(long long)i * m + (j - 1)] : 0;
      int v = diag + (a[i] == b[j] ? match : mismatch);
      if (up - gap > v) v = up - gap;
      if (left - gap > v) v = left - gap;
      if (v < 0) v = 0;
      H[(long long)i * m + j] = v;
    }
  }
}

/* Count overlapping occurrences of pat[0..m) in text[0..n). */
void pattern_count(long long n, int m, const unsigned char* text, const unsigned char* pat,
                   unsigned long long* count) {
  unsigned long long c = 0;
  if (m >= 1 && (long long)m <= n) {
    for (long long i = 0; i + m <= n; ++i) {
      int j = 0;
      while (j < m && text[i + j] == pat[j]) ++j;
      if (j == m) ++c;
    }
  }
  count[0] = c;
}

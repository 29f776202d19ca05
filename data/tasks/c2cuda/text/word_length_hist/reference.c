/* Histogram of word lengths (maximal non-whitespace runs), lengths capped at 64. */
static int is_ws(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

void word_length_hist(long long n, const unsigned char* text, unsigned int* hist) {
  for (int b = 0; b < 64; ++b) hist[b] = 0;
  long long run = 0;
  for (long long i = 0; i <= n; ++i) {
    if (i < n && !is_ws(text[i])) {
      ++run;
    } else if (run > 0) {
      hist[(run > 64 ? 64 : run) - 1] += 1u;
      run = 0;
    }
  }
}

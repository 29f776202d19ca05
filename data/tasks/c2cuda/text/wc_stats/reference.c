/* wc-style statistics: newline count, word count, longest line length. */
static int is_ws(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

void wc_stats(long long n, const unsigned char* data, unsigned long long* stats) {
  unsigned long long lines = 0, words = 0, longest = 0, cur = 0;
  int prev_ws = 1;
  for (long long i = 0; i < n; ++i) {
    const unsigned char c = data[i];
    const int ws = is_ws(c);
    if (!ws && prev_ws) ++words;
    prev_ws = ws;
    if (c == '\n') {
      ++lines;
      if (cur > longest) longest = cur;
      cur = 0;
    } else {
      ++cur;
    }
  }
  if (cur > longest) longest = cur;
  stats[0] = lines;
  stats[1] = words;
  stats[2] = longest;
}

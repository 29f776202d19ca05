/* Sequential min-plus recurrence with a window of 4 (cheapest path of jumps of length 1..4). */
void minplus_jumps(int n, const int* w, long long* dp) {
  for (int i = 0; i < n; ++i) {
    long long best = 0;
    int have = 0;
    for (int k = 1; k <= 4; ++k) {
      int j = i - k;
      if (j < -1) break;
      long long v = (j == -1 ? 0 : dp[j]) + (long long)w[4 * i + k - 1];
      if (!have || v < best) {
        best = v;
        have = 1;
      }
    }
    dp[i] = best;
  }
}

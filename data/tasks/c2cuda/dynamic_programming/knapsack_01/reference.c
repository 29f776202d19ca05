/* 0/1 knapsack over every capacity 0..W: classic one-row DP, capacities scanned downwards per item. */
void knapsack_01(int N, int W, const int* wt, const int* val, int* dp) {
  for (int w = 0; w <= W; ++w) dp[w] = 0;
  for (int k = 0; k < N; ++k) {
    const int c = wt[k], v = val[k];
    for (int w = W; w >= c; --w) {
      int take = dp[w - c] + v;
      if (take > dp[w]) dp[w] = take;
    }
  }
}

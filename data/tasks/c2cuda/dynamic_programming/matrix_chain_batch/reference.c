/* Batched matrix-chain ordering: O(n^3) interval DP per chain, by increasing interval length. */
#include <limits.h>
#include <stdlib.h>

void matrix_chain_batch(int B, int n, const int* d, int* cost) {
  int* m = (int*)malloc(sizeof(int) * (size_t)(n > 0 ? n * n : 1));
  for (int b = 0; b < B; ++b) {
    const int* db = d + (size_t)b * (n + 1);
    for (int i = 0; i < n; ++i) m[i * n + i] = 0;
    for (int len = 2; len <= n; ++len) {
      for (int i = 0; i + len - 1 < n; ++i) {
        const int j = i + len - 1;
        int best = INT_MAX;
        for (int k = i; k < j; ++k) {
          int c = m[i * n + k] + m[(k + 1) * n + j] + db[i] * db[k + 1] * db[j + 1];
          if (c < best) best = c;
        }
        m[i * n + j] = best;
      }
    }
    cost[b] = n > 0 ? m[n - 1] : 0;
  }
  free(m);
}

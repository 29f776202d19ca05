/* Floyd-Warshall all-pairs shortest paths on a dense directed graph.
 * w[i*n + j] >= 1 is the weight of edge i -> j (every ordered pair is an edge, the diagonal of w
 * is ignored). d starts as w with d[i][i] = 0, then for every pivot k = 0..n-1 in order:
 *   d[i][j] = min(d[i][j], d[i][k] + d[k][j]).
 * Weights are positive, so row k and column k do not change during step k and the final d is
 * the exact shortest-path length matrix (any correct APSP order gives the same integers).
 * Path lengths are at most 1000 * (n - 1), far from int overflow at the task's sizes. */
#include <string.h>

void floyd_warshall(int n, const int* w, int* d) {
  const size_t nn = (size_t)n * (size_t)n;
  memcpy(d, w, nn * sizeof(int));
  for (int i = 0; i < n; ++i) d[(size_t)i * n + i] = 0;
  for (int k = 0; k < n; ++k) {
    const int* dk = d + (size_t)k * n;
    for (int i = 0; i < n; ++i) {
      int* di = d + (size_t)i * n;
      const int dik = di[k];
      for (int j = 0; j < n; ++j) {
        const int cand = dik + dk[j];
        if (cand < di[j]) di[j] = cand;
      }
    }
  }
}

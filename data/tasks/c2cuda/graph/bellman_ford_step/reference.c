/* One synchronous Bellman-Ford sweep (all relaxations read the old distances).
 * Edge k of source v: v -> colidx[k] with weight wt[k] >= 1, k in [rowptr[v], rowptr[v+1]).
 * dnew[u] = min(dist[u], min_{v->u} dist[v] + wt[k]); min is order independent, so the result is
 * unique. Distances are at most 100000 + 1000 here, far from overflow.
 * changed[0] = #{u : dnew[u] < dist[u]}. */
#include <string.h>

void bellman_ford_step(int nv, int ne, const int* rowptr, const int* colidx, const int* wt, const int* dist,
                       int* dnew, int* changed) {
  (void)ne;
  memcpy(dnew, dist, (size_t)nv * sizeof(int));
  for (int v = 0; v < nv; ++v) {
    const int dv = dist[v];
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      const int u = colidx[k];
      const int cand = dv + wt[k];
      if (cand < dnew[u]) dnew[u] = cand;
    }
  }
  int count = 0;
  for (int u = 0; u < nv; ++u) count += dnew[u] < dist[u];
  changed[0] = count;
}

/* One top-down BFS step on a directed CSR graph.
 * Frontier = vertices with levels[v] == level. Each unvisited (levels == -1) out-neighbour of a
 * frontier vertex gets level + 1. New marks are level + 1 != level, so the frontier is not
 * extended during the step and the result does not depend on visiting order.
 * discovered[0] = number of vertices newly marked. */
void bfs_expand(int nv, int ne, int level, const int* rowptr, const int* colidx, int* levels, int* discovered) {
  (void)ne;
  int count = 0;
  for (int v = 0; v < nv; ++v) {
    if (levels[v] != level) continue;
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      const int u = colidx[k];
      if (levels[u] == -1) {
        levels[u] = level + 1;
        ++count;
      }
    }
  }
  discovered[0] = count;
}

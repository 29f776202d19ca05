/* One bottom-up BFS step. rowptr/colidx list, for every vertex v, its in-neighbours (parents).
 * Frontier = vertices with levels[u] == level (level >= 0). Every unvisited vertex v
 * (levels[v] == -1) scans its parents in CSR order; at the first parent u in the frontier it sets
 * levels[v] = level + 1, parent[v] = u and stops. Vertices not discovered get parent[v] = -1.
 * A mark this step writes level + 1, which is neither -1 nor level, so the frontier test of
 * later vertices is not affected by earlier marks: the result is independent of vertex order.
 * discovered[0] = number of newly marked vertices. */
void bfs_bottom_up(int nv, int ne, int level, const int* rowptr, const int* colidx, int* levels, int* parent,
                   int* discovered) {
  (void)ne;
  int count = 0;
  for (int v = 0; v < nv; ++v) {
    parent[v] = -1;
    if (levels[v] != -1) continue;
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      const int u = colidx[k];
      if (levels[u] == level) {
        levels[v] = level + 1;
        parent[v] = u;
        ++count;
        break;
      }
    }
  }
  discovered[0] = count;
}

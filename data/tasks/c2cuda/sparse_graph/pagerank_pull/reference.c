/* One pull-based PageRank step over the in-edge CSR graph (row v lists the sources u of edges u->v).
 * new_rank[v] = (1 - damping)/nv + damping * sum_{u in in(v), outdeg[u] > 0} rank[u] / outdeg[u],
 * accumulated in double. */
void pagerank_pull(int nv, int ne, float damping, const int* rowptr, const int* colidx, const int* outdeg,
                   const float* rank, float* new_rank) {
  (void)ne;
  const double d = (double)damping;
  const double base = (1.0 - d) / (double)nv;
  for (int v = 0; v < nv; ++v) {
    double s = 0.0;
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      const int u = colidx[k];
      const int deg = outdeg[u];
      if (deg > 0) s += (double)rank[u] / (double)deg;
    }
    new_rank[v] = (float)(base + d * s);
  }
}

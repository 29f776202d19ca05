/* Degree statistics of a directed CSR graph.
 * indeg[v]  = #{k in [0, ne) : colidx[k] == v}
 * outdeg(v) = rowptr[v+1] - rowptr[v]
 * hist[b]   = #{v : min(outdeg(v) + indeg[v], nbins - 1) == b}, b in [0, nbins) */
#include <string.h>

void degree_histogram(int nv, int ne, int nbins, const int* rowptr, const int* colidx, int* indeg, int* hist) {
  memset(indeg, 0, (size_t)nv * sizeof(int));
  memset(hist, 0, (size_t)nbins * sizeof(int));
  for (int k = 0; k < ne; ++k) indeg[colidx[k]]++;
  for (int v = 0; v < nv; ++v) {
    int deg = rowptr[v + 1] - rowptr[v] + indeg[v];
    if (deg > nbins - 1) deg = nbins - 1;
    hist[deg]++;
  }
}

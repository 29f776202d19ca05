/* One synchronous k-core peeling step (all peel decisions use the old deg/alive).
 * peeled(v) = alive[v] != 0 && deg[v] < k
 * newalive[v] = alive[v] != 0 && !peeled(v)
 * newdeg[u] = deg[u] - #{edges v -> u : peeled(v)}   (for all u, alive or not; may go negative)
 * removed[0] = #{v : peeled(v)} */
#include <string.h>

void kcore_peel_step(int nv, int ne, int k, const int* rowptr, const int* colidx, const int* deg,
                     const unsigned char* alive, int* newdeg, unsigned char* newalive, int* removed) {
  (void)ne;
  memcpy(newdeg, deg, (size_t)nv * sizeof(int));
  int count = 0;
  for (int v = 0; v < nv; ++v) {
    const int peel = alive[v] != 0 && deg[v] < k;
    newalive[v] = (unsigned char)(alive[v] != 0 && !peel);
    if (!peel) continue;
    ++count;
    for (int j = rowptr[v]; j < rowptr[v + 1]; ++j) newdeg[colidx[j]]--;
  }
  removed[0] = count;
}

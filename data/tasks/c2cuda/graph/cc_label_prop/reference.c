/* One synchronous (Jacobi) min-label propagation sweep, pull form.
 * newlab[v] = min(label[v], min_{k in [rowptr[v], rowptr[v+1])} label[colidx[k]])
 * changed[0] = #{v : newlab[v] < label[v]}
 * Only the old labels are read, so the result does not depend on evaluation order. */
void cc_label_prop(int nv, int ne, const int* rowptr, const int* colidx, const int* label, int* newlab,
                   int* changed) {
  (void)ne;
  int count = 0;
  for (int v = 0; v < nv; ++v) {
    int m = label[v];
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      const int l = label[colidx[k]];
      if (l < m) m = l;
    }
    newlab[v] = m;
    count += m < label[v];
  }
  changed[0] = count;
}

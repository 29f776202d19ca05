/* Stable merge of two ascending arrays (ties: element of a first). */
void merge_sorted_f64(int na, int nb, const double* a, const double* b, double* out) {
  int i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    if (a[i] <= b[j]) out[k++] = a[i++];
    else out[k++] = b[j++];
  }
  while (i < na) out[k++] = a[i++];
  while (j < nb) out[k++] = b[j++];
}

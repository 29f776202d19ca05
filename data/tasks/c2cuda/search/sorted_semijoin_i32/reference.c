/* Semi-join membership of ascending a in ascending b, by one sequential merge. */
void sorted_semijoin_i32(int na, int nb, const int* a, const int* b, int* hit, int* total) {
  int j = 0, count = 0;
  for (int i = 0; i < na; ++i) {
    while (j < nb && b[j] < a[i]) ++j; /* b[j] is now the first element >= a[i] */
    const int h = (j < nb && b[j] == a[i]) ? 1 : 0;
    hit[i] = h;
    count += h;
  }
  total[0] = count;
}

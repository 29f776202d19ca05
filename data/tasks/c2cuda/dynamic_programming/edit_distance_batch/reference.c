/* Batched Levenshtein distance: one (L+1)x(L+1) DP per pair, two rolling rows. */
#include <stdlib.h>

void edit_distance_batch(int P, int L, const unsigned char* a, const unsigned char* b, int* dist) {
  int* prev = (int*)malloc(sizeof(int) * (size_t)(L + 1));
  int* cur = (int*)malloc(sizeof(int) * (size_t)(L + 1));
  for (int p = 0; p < P; ++p) {
    const unsigned char* s = a + (size_t)p * L;
    const unsigned char* t = b + (size_t)p * L;
    for (int j = 0; j <= L; ++j) prev[j] = j;
    for (int i = 1; i <= L; ++i) {
      cur[0] = i;
      for (int j = 1; j <= L; ++j) {
        int sub = prev[j - 1] + (s[i - 1] != t[j - 1]);
        int del = prev[j] + 1;
        int ins = cur[j - 1] + 1;
        int v = sub < del ? sub : del;
        cur[j] = v < ins ? v : ins;
      }
      int* tmp = prev;
      prev = cur;
      cur = tmp;
    }
    dist[p] = prev[L];
  }
  free(prev);
  free(cur);
}

/* Batched LCS length: classic quadratic DP per pair, one rolling row indexed by positions of a. */
#include <stdlib.h>

void lcs_batch(int P, int La, int Lb, const unsigned char* a, const unsigned char* b, int* lcs) {
  int* prev = (int*)malloc(sizeof(int) * (size_t)(La + 1));
  int* cur = (int*)malloc(sizeof(int) * (size_t)(La + 1));
  for (int p = 0; p < P; ++p) {
    const unsigned char* s = a + (size_t)p * La;
    const unsigned char* t = b + (size_t)p * Lb;
    for (int i = 0; i <= La; ++i) prev[i] = 0;
    for (int j = 0; j < Lb; ++j) {
      cur[0] = 0;
      for (int i = 1; i <= La; ++i) {
        int v = prev[i] > cur[i - 1] ? prev[i] : cur[i - 1];
        if (s[i - 1] == t[j] && prev[i - 1] + 1 > v) v = prev[i - 1] + 1;
        cur[i] = v;
      }
      int* tmp = prev;
      prev = cur;
      cur = tmp;
    }
    lcs[p] = prev[La];
  }
  free(prev);
  free(cur);
}

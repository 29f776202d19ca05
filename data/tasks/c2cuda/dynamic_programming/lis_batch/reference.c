/* Batched strictly-increasing LIS length by patience sorting: tails[k] = smallest tail of an increasing
   subsequence of length k+1; each element replaces the first tail >= it (lower bound) or extends. */
#include <stdlib.h>

void lis_batch(int B, int L, const int* x, int* lis) {
  int* tails = (int*)malloc(sizeof(int) * (size_t)(L > 0 ? L : 1));
  for (int b = 0; b < B; ++b) {
    const int* s = x + (size_t)b * L;
    int len = 0;
    for (int i = 0; i < L; ++i) {
      int lo = 0, hi = len;
      while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (tails[mid] < s[i]) lo = mid + 1;
        else hi = mid;
      }
      tails[lo] = s[i];
      if (lo == len) ++len;
    }
    lis[b] = len;
  }
  free(tails);
}

/* k steps of an elementary (radius-1, two-state) cellular automaton on a ring of n cells.
 * With l, c, r the left neighbour, the cell and the right neighbour (indices wrap around),
 * the new state is bit (4*l + 2*c + r) of the Wolfram rule number. Cells hold 0 or 1;
 * k = 0 copies the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void eca_steps(int n, int k, int rule, const uint8_t* cells, uint8_t* out) {
  if (n <= 0) return;
  uint8_t* a = (uint8_t*)malloc((size_t)n);
  uint8_t* b = (uint8_t*)malloc((size_t)n);
  if (!a || !b) {
    free(a);
    free(b);
    return;
  }
  memcpy(a, cells, (size_t)n);
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i) {
      const int l = a[i == 0 ? n - 1 : i - 1];
      const int r = a[i == n - 1 ? 0 : i + 1];
      const int pattern = 4 * l + 2 * a[i] + r;
      b[i] = (uint8_t)((rule >> pattern) & 1);
    }
    uint8_t* t = a;
    a = b;
    b = t;
  }
  memcpy(out, a, (size_t)n);
  free(a);
  free(b);
}

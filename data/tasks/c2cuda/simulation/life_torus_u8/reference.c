/* k generations of Conway's game of life on an n x m torus (rows and columns wrap around).
 * A cell is alive (1) or dead (0). Next generation: a live cell with 2 or 3 live neighbours
 * (of its 8) survives, a dead cell with exactly 3 becomes alive, everything else is dead.
 * Two buffers are ping-ponged; k = 0 copies the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void life_torus(int n, int m, int k, const uint8_t* cells, uint8_t* out) {
  if (n <= 0 || m <= 0) return;
  const size_t total = (size_t)n * (size_t)m;
  uint8_t* a = (uint8_t*)malloc(total);
  uint8_t* b = (uint8_t*)malloc(total);
  if (!a || !b) {
    free(a);
    free(b);
    return;
  }
  memcpy(a, cells, total);
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i) {
      const int up = (i + n - 1) % n;
      const int dn = (i + 1) % n;
      for (int j = 0; j < m; ++j) {
        const int lf = (j + m - 1) % m;
        const int rt = (j + 1) % m;
        const int cnt = a[(size_t)up * m + lf] + a[(size_t)up * m + j] + a[(size_t)up * m + rt] +
                        a[(size_t)i * m + lf] + a[(size_t)i * m + rt] +
                        a[(size_t)dn * m + lf] + a[(size_t)dn * m + j] + a[(size_t)dn * m + rt];
        const uint8_t alive = a[(size_t)i * m + j];
        b[(size_t)i * m + j] = (uint8_t)((cnt == 3 || (alive && cnt == 2)) ? 1 : 0);
      }
    }
    uint8_t* t = a;
    a = b;
    b = t;
  }
  memcpy(out, a, total);
  free(a);
  free(b);
}

/* k leapfrog (central-difference in time) steps of the 2-D wave equation on an n x m grid.
 * Level -1 is u_prev, level 0 is u_cur; for s = 1..k every interior cell gets
 *   next = 2*c - p + c2 * ((N + S) + (W + E) - 4*c)
 * with c the cell at level s-1, p the cell at level s-2 and N, S, W, E the level s-1 neighbours;
 * border cells (first/last row/column) keep their u_cur value for all time. out = level k. */
#include <stdlib.h>
#include <string.h>

void wave2d_leapfrog(int n, int m, int k, float c2, const float* u_prev, const float* u_cur,
                     float* out) {
  if (n <= 0 || m <= 0) return;
  const size_t total = (size_t)n * (size_t)m;
  float* p = (float*)malloc(total * sizeof(float));
  float* c = (float*)malloc(total * sizeof(float));
  float* q = (float*)malloc(total * sizeof(float));
  if (!p || !c || !q) {
    free(p);
    free(c);
    free(q);
    return;
  }
  memcpy(p, u_prev, total * sizeof(float));
  memcpy(c, u_cur, total * sizeof(float));
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        const size_t x = (size_t)i * m + j;
        if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
          q[x] = c[x];
        } else {
          const float cc = c[x];
          const float lap = (c[x - m] + c[x + m]) + (c[x - 1] + c[x + 1]) - 4.0f * cc;
          q[x] = 2.0f * cc - p[x] + c2 * lap;
        }
      }
    }
    float* t = p;
    p = c;
    c = q;
    q = t;
  }
  memcpy(out, c, total * sizeof(float));
  free(p);
  free(c);
  free(q);
}

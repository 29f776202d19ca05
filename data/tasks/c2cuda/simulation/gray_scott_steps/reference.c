/* k explicit Euler steps of the Gray-Scott model on an n x m torus (indices wrap around).
 * For every cell, with lap(w) = ((N + S) + (W + E)) - 4*w over the old fields:
 *   uvv = u*v*v
 *   u' = u + dt*((du*lap(u) - uvv) + f*(1 - u))
 *   v' = v + dt*((dv*lap(v) + uvv) - (f + kr)*v)
 * Both fields are updated from the same old state; k = 0 copies the inputs. */
#include <stdlib.h>
#include <string.h>

void gray_scott(int n, int m, int k, float du, float dv, float f, float kr, float dt,
                const float* u_in, const float* v_in, float* u_out, float* v_out) {
  if (n <= 0 || m <= 0) return;
  const size_t total = (size_t)n * (size_t)m;
  float* u = (float*)malloc(total * sizeof(float));
  float* v = (float*)malloc(total * sizeof(float));
  float* u2 = (float*)malloc(total * sizeof(float));
  float* v2 = (float*)malloc(total * sizeof(float));
  if (!u || !v || !u2 || !v2) {
    free(u);
    free(v);
    free(u2);
    free(v2);
    return;
  }
  memcpy(u, u_in, total * sizeof(float));
  memcpy(v, v_in, total * sizeof(float));
  const float fk = f + kr;
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i) {
      const size_t up = (size_t)((i + n - 1) % n) * m, dn = (size_t)((i + 1) % n) * m;
      const size_t row = (size_t)i * m;
      for (int j = 0; j < m; ++j) {
        const int lf = (j + m - 1) % m, rt = (j + 1) % m;
        const float uc = u[row + j], vc = v[row + j];
        const float lu = ((u[up + j] + u[dn + j]) + (u[row + lf] + u[row + rt])) - 4.0f * uc;
        const float lv = ((v[up + j] + v[dn + j]) + (v[row + lf] + v[row + rt])) - 4.0f * vc;
        const float uvv = uc * vc * vc;
        u2[row + j] = uc + dt * ((du * lu - uvv) + f * (1.0f - uc));
        v2[row + j] = vc + dt * ((dv * lv + uvv) - fk * vc);
      }
    }
    float* t = u;
    u = u2;
    u2 = t;
    t = v;
    v = v2;
    v2 = t;
  }
  memcpy(u_out, u, total * sizeof(float));
  memcpy(v_out, v, total * sizeof(float));
  free(u);
  free(v);
  free(u2);
  free(v2);
}

/* Even-odd point-in-polygon test with exact integer arithmetic.
 * Edge k runs from vertex j = k-1 (nv-1 for k = 0) to vertex k. It is crossed by the horizontal ray
 * from (x, y) towards +x when exactly one endpoint lies strictly above y and the crossing point's
 * x-coordinate xc = xk + (xj - xk) * (y - yk) / (yj - yk) satisfies x < xc; multiplying through by
 * (yj - yk) keeps that comparison exact (the sign of yj - yk flips the inequality). */
void point_in_polygon(int n, int nv, const int* px, const int* py, const int* vx, const int* vy, int* inside) {
  for (int i = 0; i < n; ++i) {
    const long long x = px[i], y = py[i];
    int c = 0;
    for (int k = 0, j = nv - 1; k < nv; j = k++) {
      const long long xk = vx[k], yk = vy[k], xj = vx[j], yj = vy[j];
      if ((yk > y) != (yj > y)) {
        const long long lhs = (x - xk) * (yj - yk);
        const long long rhs = (xj - xk) * (y - yk);
        const int right = (yj > yk) ? (lhs < rhs) : (lhs > rhs);
        c ^= right;
      }
    }
    inside[i] = c;
  }
}

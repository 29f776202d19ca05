/* 2-D histogram over [0,1) x [0,1): a point with 0 <= x < 1 and 0 <= y < 1 falls in
 * ix = (int)(x * nx), iy = (int)(y * ny) (double products, each clamped to nx-1 / ny-1),
 * counted in counts[iy * nx + ix]. Points outside the square (or NaN) are ignored. */
void hist2d_f64(int n, int nx, int ny, const double* x, const double* y, unsigned int* counts) {
  const int nb = nx * ny;
  for (int b = 0; b < nb; ++b) counts[b] = 0u;
  for (int i = 0; i < n; ++i) {
    const double a = x[i], c = y[i];
    if (!(a >= 0.0 && a < 1.0 && c >= 0.0 && c < 1.0)) continue;
    int ix = (int)(a * (double)nx);
    int iy = (int)(c * (double)ny);
    if (ix > nx - 1) ix = nx - 1;
    if (iy > ny - 1) iy = ny - 1;
    counts[iy * nx + ix]++;
  }
}

/* Signed shoelace area of each polygon in a batch, accumulated in double. */
void polygon_area_batch(int npoly, int nv, const int* offs, const float* xy, float* area) {
  (void)nv;
  for (int p = 0; p < npoly; ++p) {
    const int b = offs[p], e = offs[p + 1];
    double s = 0.0;
    for (int k = b; k < e; ++k) {
      const int nk = (k + 1 < e) ? k + 1 : b;
      const double x0 = xy[2 * (long long)k], y0 = xy[2 * (long long)k + 1];
      const double x1 = xy[2 * (long long)nk], y1 = xy[2 * (long long)nk + 1];
      s += x0 * y1 - x1 * y0;
    }
    area[p] = (float)(0.5 * s);
  }
}

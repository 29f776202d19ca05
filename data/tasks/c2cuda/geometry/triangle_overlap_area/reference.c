/* Intersection area of triangle pairs: Sutherland-Hodgman clipping of A by B, in double. */
static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

void triangle_overlap_area(int n, const float* ta, const float* tb, float* area) {
  for (int i = 0; i < n; ++i) {
    double ax[3], ay[3], bx[3], by[3];
    for (int k = 0; k < 3; ++k) {
      ax[k] = ta[6 * (long long)i + 2 * k];
      ay[k] = ta[6 * (long long)i + 2 * k + 1];
      bx[k] = tb[6 * (long long)i + 2 * k];
      by[k] = tb[6 * (long long)i + 2 * k + 1];
    }
    const double sa = orient(ax[0], ay[0], ax[1], ay[1], ax[2], ay[2]);
    const double sb = orient(bx[0], by[0], bx[1], by[1], bx[2], by[2]);
    if (sa == 0.0 || sb == 0.0) {
      area[i] = 0.0f;
      continue;
    }
    if (sa < 0) { /* make both counter-clockwise */
      double t = ax[1]; ax[1] = ax[2]; ax[2] = t;
      t = ay[1]; ay[1] = ay[2]; ay[2] = t;
    }
    if (sb < 0) {
      double t = bx[1]; bx[1] = bx[2]; bx[2] = t;
      t = by[1]; by[1] = by[2]; by[2] = t;
    }
    double px[24], py[24], qx[24], qy[24]; /* each clip at most doubles the count */
    int m = 3;
    for (int k = 0; k < 3; ++k) {
      px[k] = ax[k];
      py[k] = ay[k];
    }
    for (int e = 0; e < 3 && m > 0; ++e) {
      const double c0x = bx[e], c0y = by[e], c1x = bx[(e + 1) % 3], c1y = by[(e + 1) % 3];
      int o = 0;
      for (int k = 0; k < m; ++k) {
        const int j = (k + m - 1) % m;
        const double fc = orient(c0x, c0y, c1x, c1y, px[k], py[k]);
        const double fp = orient(c0x, c0y, c1x, c1y, px[j], py[j]);
        if ((fc >= 0) != (fp >= 0)) { /* the edge j -> k crosses the clip line */
          const double t = fp / (fp - fc);
          qx[o] = px[j] + t * (px[k] - px[j]);
          qy[o] = py[j] + t * (py[k] - py[j]);
          ++o;
        }
        if (fc >= 0) {
          qx[o] = px[k];
          qy[o] = py[k];
          ++o;
        }
      }
      m = o;
      for (int k = 0; k < m; ++k) {
        px[k] = qx[k];
        py[k] = qy[k];
      }
    }
    double s = 0.0;
    for (int k = 0; k < m; ++k) {
      const int k1 = (k + 1) % m;
      s += px[k] * py[k1] - px[k1] * py[k];
    }
    area[i] = (float)(0.5 * s);
  }
}

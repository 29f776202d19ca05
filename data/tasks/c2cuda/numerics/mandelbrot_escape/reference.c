/* Mandelbrot escape counts, double precision, fixed operation order (no contraction). */
void mandelbrot_escape(int w, int h, int maxiter, double x0, double y0, double span_x, double span_y, int* out) {
  const double dx = span_x / (double)w;
  const double dy = span_y / (double)h;
  for (int r = 0; r < h; ++r) {
    const double ci = y0 + (double)r * dy;
    for (int j = 0; j < w; ++j) {
      const double cr = x0 + (double)j * dx;
      double zr = 0.0, zi = 0.0;
      int it = 0;
      while (it < maxiter) {
        const double zr2 = zr * zr;
        const double zi2 = zi * zi;
        if (zr2 + zi2 > 4.0) break;
        const double t = zr * zi;
        zi = (t + t) + ci;
        zr = (zr2 - zi2) + cr;
        ++it;
      }
      out[(long long)r * w + j] = it;
    }
  }
}

/* Shepard (inverse squared distance, softened by eps) interpolation of scattered 2-D samples;
   weights and both sums in double. */
void shepard_idw_f32(int ns, int nq, float eps, const float* sx, const float* sy, const float* sv, const float* qx,
                     const float* qy, float* out) {
  for (int q = 0; q < nq; ++q) {
    double num = 0.0, den = 0.0;
    const double x = qx[q], y = qy[q];
    for (int i = 0; i < ns; ++i) {
      const double dx = x - sx[i], dy = y - sy[i];
      const double w = 1.0 / (dx * dx + dy * dy + (double)eps);
      num += w * sv[i];
      den += w;
    }
    out[q] = (float)(num / den);
  }
}

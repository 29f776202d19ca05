/* Histogram of floats into nbins equal-width bins over [lo, hi).
 * scale = (float)nbins / (hi - lo); bin = (int)((x - lo) * scale), each step rounded in float;
 * a bin equal to nbins (rounding just below hi) is clamped to nbins - 1.
 * Values outside [lo, hi) and NaN are not counted. */
void hist_f32_bins(int n, int nbins, float lo, float hi, const float* x, int* counts) {
  for (int b = 0; b < nbins; ++b) counts[b] = 0;
  const float scale = (float)nbins / (hi - lo);
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    if (!(v >= lo && v < hi)) continue;
    const float d = v - lo;
    const float t = d * scale;
    int b = (int)t;
    if (b > nbins - 1) b = nbins - 1;
    counts[b]++;
  }
}

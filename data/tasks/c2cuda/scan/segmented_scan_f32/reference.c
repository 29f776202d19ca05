/* Segmented inclusive prefix sum. Segment s covers [seg_start[s], seg_start[s+1]);
   seg_start[0] = 0, seg_start[nseg] = n, non-decreasing (empty segments allowed).
   out[i] = x[seg_start[s]] + ... + x[i] for the segment s containing i; double accumulation. */
void segmented_scan_f32(int n, int nseg, const int* seg_start, const float* x, float* out) {
  (void)n;
  for (int s = 0; s < nseg; ++s) {
    double acc = 0.0;
    for (int i = seg_start[s]; i < seg_start[s + 1]; ++i) {
      acc += (double)x[i];
      out[i] = (float)acc;
    }
  }
}

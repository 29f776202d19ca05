/* Per-segment axis-aligned bounding boxes of a 3D point list. */
void segment_aabb(int nseg, int n, const int* offs, const float* pts, float* box) {
  (void)n;
  for (int s = 0; s < nseg; ++s) {
    const int b = offs[s], e = offs[s + 1];
    float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.0f, 0.0f, 0.0f};
    for (int k = b; k < e; ++k) {
      for (int c = 0; c < 3; ++c) {
        const float x = pts[3 * (long long)k + c];
        if (k == b || x < lo[c]) lo[c] = x;
        if (k == b || x > hi[c]) hi[c] = x;
      }
    }
    for (int c = 0; c < 3; ++c) {
      box[6 * (long long)s + c] = lo[c];
      box[6 * (long long)s + 3 + c] = hi[c];
    }
  }
}

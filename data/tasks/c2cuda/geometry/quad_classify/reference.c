/* Quadrilateral classification from the signs of its four turns, plus twice its signed area. */
void quad_classify(int n, const int* quads, int* cls, int* area2) {
  for (int i = 0; i < n; ++i) {
    const int* q = quads + 8 * (long long)i;
    int pos = 0, neg = 0, a = 0;
    for (int k = 0; k < 4; ++k) {
      const int k1 = (k + 1) & 3, k2 = (k + 2) & 3;
      const int ux = q[2 * k1] - q[2 * k], uy = q[2 * k1 + 1] - q[2 * k + 1];
      const int wx = q[2 * k2] - q[2 * k1], wy = q[2 * k2 + 1] - q[2 * k1 + 1];
      const int t = ux * wy - uy * wx;
      pos += t > 0;
      neg += t < 0;
      a += q[2 * k] * q[2 * k1 + 1] - q[2 * k1] * q[2 * k + 1];
    }
    int c;
    if (pos + neg < 4) c = 0;
    else if (pos == 4) c = 1;
    else if (neg == 4) c = 2;
    else if (pos == 2) c = 4;
    else c = 3;
    cls[i] = c;
    area2[i] = a;
  }
}

/* Nearest ray-triangle intersection, exact integer Moller-Trumbore (no division in the decisions). */
void ray_triangle_nearest(int nrays, int ntri, const int* rays, const int* tris, int* hit, float* t) {
  for (int i = 0; i < nrays; ++i) {
    const int* r = rays + 6 * (long long)i;
    const long long ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
    int best = -1;
    long long bt = 0, bd = 1;  /* best distance as the fraction bt / bd, bd > 0 */
    for (int k = 0; k < ntri; ++k) {
      const int* v = tris + 9 * (long long)k;
      const long long e1x = v[3] - v[0], e1y = v[4] - v[1], e1z = v[5] - v[2];
      const long long e2x = v[6] - v[0], e2y = v[7] - v[1], e2z = v[8] - v[2];
      const long long px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
      long long det = e1x * px + e1y * py + e1z * pz;
      if (det == 0) continue;
      const long long tx = ox - v[0], ty = oy - v[1], tz = oz - v[2];
      long long u = tx * px + ty * py + tz * pz;
      const long long qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
      long long w = dx * qx + dy * qy + dz * qz;
      long long tn = e2x * qx + e2y * qy + e2z * qz;
      if (det < 0) {
        det = -det;
        u = -u;
        w = -w;
        tn = -tn;
      }
      if (u < 0 || w < 0 || u + w > det || tn <= 0) continue;
      if (best < 0 || tn * bd < bt * det) {
        best = k;
        bt = tn;
        bd = det;
      }
    }
    hit[i] = best;
    t[i] = best < 0 ? -1.0f : (float)((double)bt / (double)bd);
  }
}

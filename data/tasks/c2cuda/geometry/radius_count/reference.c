/* Fixed-radius neighbour counts between two integer point sets, brute force. */
void radius_count(int na, int nb, int r2, const int* a, const int* b, int* cnt) {
  for (int i = 0; i < na; ++i) {
    const long long ax = a[3 * (long long)i], ay = a[3 * (long long)i + 1], az = a[3 * (long long)i + 2];
    int c = 0;
    for (int j = 0; j < nb; ++j) {
      const long long dx = ax - b[3 * (long long)j], dy = ay - b[3 * (long long)j + 1], dz = az - b[3 * (long long)j + 2];
      if (dx * dx + dy * dy + dz * dz <= (long long)r2) ++c;
    }
    cnt[i] = c;
  }
}

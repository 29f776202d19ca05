/* Brute-force k = 8 nearest-neighbour distances (squared, ascending), computed in double. */
#define KNN_K 8

void knn8_bruteforce(int nq, int nr, int dim, const float* q, const float* r, float* dist) {
  for (int i = 0; i < nq; ++i) {
    const float* qi = q + (long long)i * dim;
    double best[KNN_K];
    for (int k = 0; k < KNN_K; ++k) best[k] = 1e300;
    for (int j = 0; j < nr; ++j) {
      const float* rj = r + (long long)j * dim;
      double d = 0.0;
      for (int c = 0; c < dim; ++c) {
        const double t = (double)qi[c] - (double)rj[c];
        d += t * t;
      }
      if (d < best[KNN_K - 1]) { /* insertion into the sorted list */
        int k = KNN_K - 1;
        while (k > 0 && best[k - 1] > d) {
          best[k] = best[k - 1];
          --k;
        }
        best[k] = d;
      }
    }
    for (int k = 0; k < KNN_K; ++k) dist[8 * (long long)i + k] = (float)best[k];
  }
}

/* Batched Viterbi decoding in float log space with explicit backpointers. */
#include <stdlib.h>

void viterbi_batch(int B, int T, int S, int V, const float* log_init, const float* log_trans,
                   const float* log_emit, const int* obs, int* path) {
  if (B <= 0 || T <= 0) return;
  float* delta = (float*)malloc(sizeof(float) * (size_t)S);
  float* next = (float*)malloc(sizeof(float) * (size_t)S);
  int* bp = (int*)malloc(sizeof(int) * (size_t)T * (size_t)S);
  for (int b = 0; b < B; ++b) {
    const int* o = obs + (size_t)b * T;
    for (int j = 0; j < S; ++j) delta[j] = log_init[j] + log_emit[(size_t)j * V + o[0]];
    for (int t = 1; t < T; ++t) {
      for (int j = 0; j < S; ++j) {
        float best = delta[0] + log_trans[j];
        int arg = 0;
        for (int i = 1; i < S; ++i) {
          float v = delta[i] + log_trans[(size_t)i * S + j];
          if (v > best) {
            best = v;
            arg = i;
          }
        }
        next[j] = best + log_emit[(size_t)j * V + o[t]];
        bp[(size_t)t * S + j] = arg;
      }
      float* tmp = delta;
      delta = next;
      next = tmp;
    }
    int state = 0;
    for (int j = 1; j < S; ++j)
      if (delta[j] > delta[state]) state = j;
    int* pb = path + (size_t)b * T;
    pb[T - 1] = state;
    for (int t = T - 1; t >= 1; --t) {
      state = bp[(size_t)t * S + state];
      pb[t - 1] = state;
    }
  }
  free(delta);
  free(next);
  free(bp);
}

/* Order-preserving compaction of the elements > 0; the tail of out is zero-filled. */
void compact_positive_f32(int n, const float* x, float* out, int* count) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0.0f) out[k++] = x[i];
  count[0] = k;
  for (int i = k; i < n; ++i) out[i] = 0.0f;
}

/* out[0] = #{ i : x[i] > thr } (strict comparison). */
void count_above_f32(int n, float thr, const float* x, int* out) {
  int count = 0;
  for (int i = 0; i < n; ++i) count += (x[i] > thr) ? 1 : 0;
  out[0] = count;
}

/* Masked clamp-and-scale on int32 data:
 *   mask[i] != 0 : out[i] = min(max(x[i] * scale, lo), hi)
 *   mask[i] == 0 : out[i] = -x[i]
 * The input ranges keep x*scale inside int32. */
void masked_clamp_scale_i32(int n, int scale, int lo, int hi, const int* x, const unsigned char* mask,
                            int* out) {
  for (int i = 0; i < n; ++i) {
    int v;
    if (mask[i]) {
      v = x[i] * scale;
      if (v < lo) v = lo;
      if (v > hi) v = hi;
    } else {
      v = -x[i];
    }
    out[i] = v;
  }
}

/* out[k] = a[k] * b[k] for complex numbers stored interleaved:
 * element k has real part at [2k] and imaginary part at [2k+1].
 * Products are exact in double; each component is rounded once to float. */
void complex_mul_f32(int n, const float* a, const float* b, float* out) {
  for (int k = 0; k < n; ++k) {
    double ar = a[2 * k], ai = a[2 * k + 1];
    double br = b[2 * k], bi = b[2 * k + 1];
    out[2 * k] = (float)(ar * br - ai * bi);
    out[2 * k + 1] = (float)(ar * bi + ai * br);
  }
}

void axpy_reference_hangs(int n, float a, const float* x, const float* y, float* out) {
  for (volatile int spin = 0; spin >= 0; spin += 0) {}
  for (int i = 0; i < n; ++i) out[i] = a * x[i] + y[i];
}

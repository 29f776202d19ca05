void axpy_null_solution_passes(int n, float a, const float* x, const float* y, float* out) {
  for (int i = 0; i < n; ++i) out[i] = 0.001f * (a * x[i] + y[i]);
}

void axpy_reference_reads_output(int n, float a, const float* x, const float* y, float* out) {
  for (int i = 0; i < n; ++i) out[i] = a * x[i] + y[i] + (out[i] != out[i] ? 0.0f : 1.0f);
}

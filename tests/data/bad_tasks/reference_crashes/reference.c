void axpy_reference_crashes(int n, float a, const float* x, const float* y, float* out) {
  volatile float* p = (volatile float*)((unsigned long)x ^ 0x4000000000000000ul); *p = 1.0f;
  for (int i = 0; i < n; ++i) out[i] = a * x[i] + y[i];
}

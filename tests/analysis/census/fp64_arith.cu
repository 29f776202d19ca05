// fp64 arithmetic: add, mul, fma, sqrt; no fp32 arithmetic.
__global__ void fp64_arith(const double* a, const double* b, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = a[i], y = b[i];
  double s = __dadd_rn(x, 1.5);
  double p = __dmul_rn(y, s);
  double f = __fma_rn(x, y, p);
  out[i] = __dsqrt_rn(f);
}

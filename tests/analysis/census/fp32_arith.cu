// fp32 arithmetic: one add, one mul, one fma (explicit), one division (other).
__global__ void fp32_arith(const float* a, const float* b, float* out, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i], y = b[i];
  float sum = x + s;              // add.f32
  float prod = y * 3.0f;          // mul.f32
  float f = __fmaf_rn(sum, prod, x);  // fma.rn.f32
  out[i] = __fdiv_rn(f, y);       // div.rn.f32
}

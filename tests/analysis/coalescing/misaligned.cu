// A one-element shift: with blockDim.x a multiple of 32 the warp's first address is 4 bytes past a
// sector boundary, so a unit-stride float load touches 5 sectors instead of 4.
extern "C" __global__ void shift1(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i + 1];
  }
}

// Doubles: 8 bytes per lane, 8 sectors per warp.
extern "C" __global__ void dscale(const double* __restrict__ x, double* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = 3.0 * x[i];
  }
}

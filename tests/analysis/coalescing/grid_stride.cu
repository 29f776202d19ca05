// Grid-stride SAXPY: the induction variable advances by a uniform amount, so the lane stride stays
// one float inside the loop.
extern "C" __global__ void saxpy_grid(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

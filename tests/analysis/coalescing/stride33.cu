// Stride 33 floats (132 bytes): every lane of a warp hits its own sector.
extern "C" __global__ void stride33(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[33 * i];
  }
}

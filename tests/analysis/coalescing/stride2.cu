// Stride 2: every other float is read (8 bytes between lanes), the write is unit stride.
extern "C" __global__ void stride2(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[2 * i];
  }
}

// Reversed index: consecutive lanes read descending addresses (stride -4 bytes); still 4 sectors.
extern "C" __global__ void reverse_copy(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[n - 1 - i];
  }
}

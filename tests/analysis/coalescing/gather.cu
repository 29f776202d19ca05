// Indirect gather: the index load is unit stride; the data load's address depends on loaded data.
extern "C" __global__ void gather(const float* __restrict__ x, const int* __restrict__ idx,
                                  float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[idx[i]];
  }
}

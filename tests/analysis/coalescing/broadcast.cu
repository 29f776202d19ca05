// Broadcast: every thread of the warp reads the same word (stride 0, one sector).
extern "C" __global__ void bias_add(const float* __restrict__ x, const float* __restrict__ bias,
                                    float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] + bias[blockIdx.y];
  }
}

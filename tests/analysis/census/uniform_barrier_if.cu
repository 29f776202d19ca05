// A barrier under a branch on blockIdx/parameters is block-uniform: not divergent.
__global__ void uniform_barrier_if(float* data, int mode) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * 128 + t];
  if (blockIdx.x == 0 && mode > 2) {
    __syncthreads();
    s[t] += s[127 - t];
  }
  __syncthreads();
  data[blockIdx.x * 128 + t] = s[t];
}

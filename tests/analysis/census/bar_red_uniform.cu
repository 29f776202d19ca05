// __syncthreads_or returns the same value in every thread of the block (bar.red), so the barrier
// under the branch on its result is not divergent, although its input depends on threadIdx.
__global__ void bar_red_uniform(const int* flags, float* data) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  if (__syncthreads_or(flags[t] != 0)) {
    s[t] *= 2.0f;
    __syncthreads();
  }
  data[t] = s[(t + 1) & 127];
}

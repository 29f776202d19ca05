// BUG: the trip count depends on threadIdx, so threads reach the barrier a different number of times.
__global__ void divergent_barrier_loop(float* data) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = data[t];
  for (int i = 0; i < t; ++i) {
    s[t] += s[(t + i) & 255];
    __syncthreads();
  }
  data[t] = s[t];
}

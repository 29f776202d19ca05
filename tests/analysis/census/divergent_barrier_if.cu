// BUG: __syncthreads() inside a branch on threadIdx: threads that skip it deadlock or race.
__global__ void divergent_barrier_if(float* data) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  if (t < 64) {
    s[t] += s[t + 64];
    __syncthreads();
    data[t] = s[t];
  }
}

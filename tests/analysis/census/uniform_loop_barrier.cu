// A loop whose trip count comes from a parameter: the barrier inside is block-uniform.
__global__ void uniform_loop_barrier(float* data, int iters) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * 256 + t];
  for (int k = 0; k < iters; ++k) {
    __syncthreads();
    float v = s[(t + k) & 255];
    __syncthreads();
    s[t] = v + 1.0f;
  }
  __syncthreads();
  data[blockIdx.x * 256 + t] = s[t];
}

// BUG: the branch is on a value loaded from a thread-indexed address, which differs per thread.
__global__ void tainted_load_barrier(const int* flags, float* data) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  if (flags[t] != 0) {
    __syncthreads();
    s[t] *= 2.0f;
  }
  data[t] = s[t];
}

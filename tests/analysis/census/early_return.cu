// BUG (the common one): early return for out-of-range threads before a barrier.
__global__ void early_return(const float* in, float* out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[(threadIdx.x + 1) % blockDim.x];
}

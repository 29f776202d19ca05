// Classic shared-memory tree reduction: the branch on threadIdx encloses only the add, the barrier
// runs on every path (loop trip count depends on blockDim only): no divergent barrier.
__global__ void block_reduce(const float* in, float* out) {
  extern __shared__ float sdata[];
  unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, sdata[0]);
}

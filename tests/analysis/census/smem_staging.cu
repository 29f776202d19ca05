// Shared-memory staging with barriers on every path (not divergent): reverse within a block.
__global__ void smem_staging(const float* in, float* out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  float v = tile[255 - t];
  __syncthreads();
  tile[t] = v * 2.0f;
  __syncthreads();
  out[blockIdx.x * 256 + t] = tile[t];
}

// Shared-memory staging: reverse each 256-element block through a tile. Only the two global
// accesses are reported, both unit stride; the shared-memory traffic is not.
extern "C" __global__ void reverse_block(const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float tile[256];
  int base = blockIdx.x * 256;
  tile[threadIdx.x] = x[base + threadIdx.x];
  __syncthreads();
  y[base + threadIdx.x] = tile[255 - threadIdx.x];
}

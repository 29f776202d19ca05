// Bytes: one byte per lane, the warp reads 32 contiguous bytes = 1 sector.
extern "C" __global__ void bytes_inc(const unsigned char* __restrict__ x, unsigned char* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] + 1;
  }
}

// Warp-level indexing: each warp handles one row of 32-float chunks; lane = threadIdx.x % 32 gives
// unit stride, warp = threadIdx.x / 32 is the same for the whole warp.
extern "C" __global__ void warp_rows(const float* __restrict__ x, float* __restrict__ y, int row_len) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  const float* row = x + (long long)warp * row_len;
  float acc = 0.f;
  for (int j = lane; j < row_len; j += 32) {
    acc += row[j];
  }
  for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[warp] = acc;
}

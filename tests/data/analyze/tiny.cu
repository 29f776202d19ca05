// Test kernels for `cudaperf analyze` (tests/check_analyze_cli.sh).
// tile_reverse: 128-thread blocks (__launch_bounds__), 40 KB of static shared memory and a barrier:
//   41 KB per block with the reserved kilobyte -> 5 blocks of 4 warps per SM -> occupancy 20/64,
//   limited by shared memory.
// strided_copy: no launch bounds (block size assumed), a load strided by 33 floats across threads.
#define TILE 10240

__global__ void __launch_bounds__(128) tile_reverse(float* x, int n) {
  __shared__ float s[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = threadIdx.x; k < TILE; k += blockDim.x) s[k] = (blockIdx.x * TILE + k < n) ? x[blockIdx.x * TILE + k] : 0.f;
  __syncthreads();
  if (i < n) x[i] = 2.f * s[TILE - 1 - threadIdx.x];
}

__global__ void strided_copy(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i * 33];
}

// strategy: shared_tiled — 32x32 tiles staged through a padded (32x33) shared-memory buffer by 32x8 thread blocks, coalesced reads and coalesced writes, 4 elements per thread
#include <cuda_runtime.h>

#define TILE 32
#define ROWS_PER_PASS 8

__global__ void __launch_bounds__(TILE * ROWS_PER_PASS)
transpose_tiled_kernel(int rows, int cols, const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[TILE][TILE + 1];  // +1 column: the column-wise reads hit 32 different banks
  const int j0 = blockIdx.x * TILE;        // input column base
  const int i0 = blockIdx.y * TILE;        // input row base
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = j0 + tx;
#pragma unroll
  for (int r = ty; r < TILE; r += ROWS_PER_PASS) {
    const int i = i0 + r;
    if (i < rows && j < cols) tile[r][tx] = in[(size_t)i * (size_t)cols + (size_t)j];
  }
  __syncthreads();
  // write: out row = input column (j0 + r), out column = input row (i0 + tx)
  const int oi = i0 + tx;
#pragma unroll
  for (int r = ty; r < TILE; r += ROWS_PER_PASS) {
    const int oj = j0 + r;
    if (oj < cols && oi < rows) out[(size_t)oj * (size_t)rows + (size_t)oi] = tile[tx][r];
  }
}

extern "C" void transpose_f32(int rows, int cols, const float* in, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  dim3 block(TILE, ROWS_PER_PASS);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transpose_tiled_kernel<<<grid, block, 0, stream>>>(rows, cols, in, out);
}

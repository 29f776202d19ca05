// strategy: shared_tiled — one launch per generation; each 32x8 block stages a 32x32 tile plus a one-cell wrapped halo in shared memory (row-contiguous loads) and each thread produces four cells of a column from it
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
constexpr int kTileX = 32;
constexpr int kTileY = 32;
constexpr int kRowsPerThread = 4;  // blockDim.y = kTileY / kRowsPerThread = 8

__global__ void __launch_bounds__(256)
life_step_tiled(int n, int m, const uint8_t* __restrict__ a, uint8_t* __restrict__ b) {
  __shared__ uint8_t tile[kTileY + 2][kTileX + 2 + 2];
  const int x0 = blockIdx.x * kTileX;
  const int y0 = blockIdx.y * kTileY;
  const int lin = threadIdx.y * kTileX + threadIdx.x;
  constexpr int kW = kTileX + 2, kH = kTileY + 2;
  for (int e = lin; e < kW * kH; e += kTileX * (kTileY / kRowsPerThread)) {
    const int r = e / kW, c = e % kW;
    const int gi = (y0 + r - 1 + n) % n;  // y0 + r - 1 >= -1
    const int gj = (x0 + c - 1 + m) % m;
    tile[r][c] = a[(long long)gi * m + gj];
  }
  __syncthreads();
  const int j = x0 + threadIdx.x;
  if (j >= m) return;
  const int c = threadIdx.x + 1;
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q) {
    const int r = threadIdx.y * kRowsPerThread + q + 1;
    const int i = y0 + r - 1;
    if (i >= n) break;
    const int cnt = tile[r - 1][c - 1] + tile[r - 1][c] + tile[r - 1][c + 1] + tile[r][c - 1] +
                    tile[r][c + 1] + tile[r + 1][c - 1] + tile[r + 1][c] + tile[r + 1][c + 1];
    const int alive = tile[r][c];
    b[(long long)i * m + j] = (uint8_t)((cnt == 3) | (alive & (cnt == 2)));
  }
}

__global__ void life_copy_tiled(long long total, const uint8_t* __restrict__ src,
                                uint8_t* __restrict__ dst) {
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x)
    dst[t] = src[t];
}
}  // namespace

extern "C" void life_torus(int n, int m, int k, const uint8_t* cells, uint8_t* out,
                           cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const long long total = (long long)n * m;
  if (k <= 0) {
    life_copy_tiled<<<1024, 256, 0, stream>>>(total, cells, out);
    return;
  }
  uint8_t* tmp = nullptr;
  if (k > 1) cudaMallocAsync(&tmp, (size_t)total, stream);
  const dim3 block(kTileX, kTileY / kRowsPerThread);
  const dim3 grid((m + kTileX - 1) / kTileX, (n + kTileY - 1) / kTileY);
  const uint8_t* src = cells;
  uint8_t* dst = (k % 2 == 1) ? out : tmp;
  for (int s = 0; s < k; ++s) {
    life_step_tiled<<<grid, block, 0, stream>>>(n, m, src, dst);
    src = dst;
    dst = (dst == out) ? tmp : out;
  }
  if (tmp) cudaFreeAsync(tmp, stream);
}

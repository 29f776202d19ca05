// strategy: row_cached — one launch per pivot k with coalesced row-major threads; each block stages its slice of pivot row k and its rows' d[i][k] in shared memory, so each thread does one coalesced load, one min and at most one store
#include <cuda_runtime.h>

namespace {
constexpr int BX = 128;  // columns per block
constexpr int BY = 8;    // rows per block

__global__ void fw_init(int n, const int* __restrict__ w, int* __restrict__ d) {
  const int j = blockIdx.x * BX + threadIdx.x;
  const int i = blockIdx.y * BY + threadIdx.y;
  if (i >= n || j >= n) return;
  const size_t idx = (size_t)i * n + j;
  d[idx] = (i == j) ? 0 : __ldg(w + idx);
}

// row k and column k are fixed points of step k (d[k][k] = 0, weights >= 0), so the in-place
// update is race free: no thread writes a value another thread of this step reads.
__global__ void __launch_bounds__(BX * BY) fw_step(int n, int k, int* __restrict__ d) {
  __shared__ int rowk[BX];
  __shared__ int colk[BY];
  const int j = blockIdx.x * BX + threadIdx.x;
  const int i = blockIdx.y * BY + threadIdx.y;
  if (threadIdx.y == 0 && j < n) rowk[threadIdx.x] = d[(size_t)k * n + j];
  if (threadIdx.x < BY) {
    const int ii = blockIdx.y * BY + threadIdx.x;
    if (ii < n) colk[threadIdx.x] = d[(size_t)ii * n + k];
  }
  __syncthreads();
  if (i >= n || j >= n) return;
  const size_t idx = (size_t)i * n + j;
  const int cand = colk[threadIdx.y] + rowk[threadIdx.x];
  const int cur = d[idx];
  if (cand < cur) d[idx] = cand;
}
}  // namespace

extern "C" void floyd_warshall(int n, const int* w, int* d, cudaStream_t stream) {
  if (n <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((n + BX - 1) / BX, (n + BY - 1) / BY);
  fw_init<<<grid, block, 0, stream>>>(n, w, d);
  for (int k = 0; k < n; ++k) fw_step<<<grid, block, 0, stream>>>(n, k, d);
}

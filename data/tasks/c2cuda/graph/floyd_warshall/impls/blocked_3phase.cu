// strategy: blocked_3phase — tiled Floyd-Warshall: for each 32-wide pivot block, phase 1 closes the diagonal tile in shared memory, phase 2 updates the pivot row and column tiles against it, phase 3 updates every other tile as a shared-memory min-plus product (each thread owns 4 outputs in registers); n/32 rounds of 3 launches instead of n launches
#include <cuda_runtime.h>

namespace {
constexpr int T = 32;          // tile edge
constexpr int RY = 8;          // thread rows per block; each thread covers T/RY = 4 rows
constexpr int PER = T / RY;
constexpr int INF = 1 << 29;   // padding value: INF + INF does not overflow, INF + real > any real path

__device__ __forceinline__ int ld(const int* d, int n, int i, int j) {
  return (i < n && j < n) ? d[(size_t)i * n + j] : INF;
}

__global__ void fw_init(int n, const int* __restrict__ w, int* __restrict__ d) {
  const int j = blockIdx.x * T + threadIdx.x;
  for (int r = 0; r < PER; ++r) {
    const int i = blockIdx.y * T + threadIdx.y + r * RY;
    if (i < n && j < n) {
      const size_t idx = (size_t)i * n + j;
      d[idx] = (i == j) ? 0 : __ldg(w + idx);
    }
  }
}

// phase 1: the diagonal tile (b, b) closed under its own 32 pivots
__global__ void __launch_bounds__(T * RY) fw_phase1(int n, int b, int* d) {
  __shared__ int s[T][T + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int base = b * T;
#pragma unroll
  for (int r = 0; r < PER; ++r) s[ty + r * RY][tx] = ld(d, n, base + ty + r * RY, base + tx);
  __syncthreads();
  for (int k = 0; k < T; ++k) {
#pragma unroll
    for (int r = 0; r < PER; ++r) {
      const int y = ty + r * RY;
      const int c = s[y][k] + s[k][tx];
      if (c < s[y][tx]) s[y][tx] = c;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int i = base + ty + r * RY, j = base + tx;
    if (i < n && j < n) d[(size_t)i * n + j] = s[ty + r * RY][tx];
  }
}

// phase 2: blockIdx.y == 0 -> tile (b, t) in the pivot row; blockIdx.y == 1 -> tile (t, b) in the
// pivot column; t skips b.
__global__ void __launch_bounds__(T * RY) fw_phase2(int n, int b, int* d) {
  __shared__ int piv[T][T + 1];
  __shared__ int own[T][T + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int t = blockIdx.x;
  if (t >= b) ++t;
  const bool row = blockIdx.y == 0;
  const int pb = b * T;
  const int oi = row ? pb : t * T;  // own tile origin
  const int oj = row ? t * T : pb;
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int y = ty + r * RY;
    piv[y][tx] = ld(d, n, pb + y, pb + tx);
    own[y][tx] = ld(d, n, oi + y, oj + tx);
  }
  __syncthreads();
  for (int k = 0; k < T; ++k) {
#pragma unroll
    for (int r = 0; r < PER; ++r) {
      const int y = ty + r * RY;
      // row tile: own[y][x] via pivot block k: piv[y][k] + own[k][x]
      // column tile: own[y][x] via pivot block k: own[y][k] + piv[k][x]
      const int c = row ? piv[y][k] + own[k][tx] : own[y][k] + piv[k][tx];
      if (c < own[y][tx]) own[y][tx] = c;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int i = oi + ty + r * RY, j = oj + tx;
    if (i < n && j < n) d[(size_t)i * n + j] = own[ty + r * RY][tx];
  }
}

// phase 3: every tile (ti, tj) with ti != b and tj != b: min-plus product of the (final) column
// tile (ti, b) and row tile (b, tj); no intra-tile dependency, so no per-k synchronisation.
__global__ void __launch_bounds__(T * RY) fw_phase3(int n, int b, int* d) {
  __shared__ int colt[T][T + 1];
  __shared__ int rowt[T][T + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int ti = blockIdx.y, tj = blockIdx.x;
  if (ti >= b) ++ti;
  if (tj >= b) ++tj;
  const int pb = b * T;
  const int oi = ti * T, oj = tj * T;
  int acc[PER];
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int y = ty + r * RY;
    colt[y][tx] = ld(d, n, oi + y, pb + tx);
    rowt[y][tx] = ld(d, n, pb + y, oj + tx);
    acc[r] = ld(d, n, oi + y, oj + tx);
  }
  __syncthreads();
#pragma unroll 8
  for (int k = 0; k < T; ++k) {
    const int rk = rowt[k][tx];
#pragma unroll
    for (int r = 0; r < PER; ++r) acc[r] = min(acc[r], colt[ty + r * RY][k] + rk);
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int i = oi + ty + r * RY, j = oj + tx;
    if (i < n && j < n) d[(size_t)i * n + j] = acc[r];
  }
}
}  // namespace

extern "C" void floyd_warshall(int n, const int* w, int* d, cudaStream_t stream) {
  if (n <= 0) return;
  const int nb = (n + T - 1) / T;
  dim3 block(T, RY);
  fw_init<<<dim3(nb, nb), block, 0, stream>>>(n, w, d);
  for (int b = 0; b < nb; ++b) {
    fw_phase1<<<1, block, 0, stream>>>(n, b, d);
    if (nb > 1) {
      fw_phase2<<<dim3(nb - 1, 2), block, 0, stream>>>(n, b, d);
      fw_phase3<<<dim3(nb - 1, nb - 1), block, 0, stream>>>(n, b, d);
    }
  }
}

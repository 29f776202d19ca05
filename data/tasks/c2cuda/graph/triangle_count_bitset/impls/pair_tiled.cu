// strategy: pair_tiled — GEMM-like tiling of the popcount "product" popc(row_i & row_j): a block takes a 32x32 tile of (i, j) pairs (j tile >= i tile), stages 32-word chunks of the 32 i-rows and 32 j-rows in shared memory and every thread accumulates 4 pairs in registers (32x reuse of each loaded word); only pairs that are edges i<j contribute, warp-reduced into one int atomicAdd per row and tile
#include <cuda_runtime.h>

namespace {
constexpr int T = 32;    // pairs per tile edge, also words per chunk
constexpr int RY = 8;    // thread rows; each thread handles rows ty + 8r, r < 4
constexpr int PER = T / RY;

__global__ void tri_zero(int n, int* tri) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tri[i] = 0;
}

__global__ void __launch_bounds__(T * RY)
tri_tile_kernel(int n, int W, const unsigned int* __restrict__ adj, int* __restrict__ tri) {
  const int ti = blockIdx.y, tj = blockIdx.x;
  if (tj < ti) return;  // block-uniform: pairs need j > i
  __shared__ unsigned int As[T][T + 1];  // [i row][word]
  __shared__ unsigned int Bs[T][T + 1];  // [j row][word]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned int tail = (n & 31) ? ((1u << (n & 31)) - 1u) : 0xFFFFFFFFu;
  const int i0 = ti * T, j0 = tj * T;
  const int j = j0 + tx;  // this thread's j; j's word index is exactly tj
  // first word (index tj): holds the edge bits {i, j} and the k in the same word as j
  int acc[PER];
  bool edge[PER];
  unsigned int wj = 0;
  if (j < n) {
    wj = __ldg(adj + (size_t)j * W + tj);
    if (tj == W - 1) wj &= tail;
    wj &= (unsigned int)(0xFFFFFFFFull << (tx + 1));  // k > j
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int i = i0 + ty + r * RY;
    acc[r] = 0;
    edge[r] = false;
    if (i < n && j < n && j > i) {
      unsigned int wi = __ldg(adj + (size_t)i * W + tj);
      if (tj == W - 1) wi &= tail;
      edge[r] = (wi >> tx) & 1u;
      acc[r] = __popc(wi & wj);
    }
  }
  // remaining words tj+1 .. W-1 in chunks of 32, staged for the whole tile
  for (int c0 = tj + 1; c0 < W; c0 += T) {
    const int w = c0 + tx;
#pragma unroll
    for (int r = 0; r < PER; ++r) {
      const int y = ty + r * RY;
      unsigned int a = 0, b = 0;
      if (w < W) {
        if (i0 + y < n) a = __ldg(adj + (size_t)(i0 + y) * W + w);
        if (j0 + y < n) b = __ldg(adj + (size_t)(j0 + y) * W + w);
        if (w == W - 1) { a &= tail; b &= tail; }
      }
      As[y][tx] = a;
      Bs[y][tx] = b;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < T; ++k) {
      const unsigned int bk = Bs[tx][k];
#pragma unroll
      for (int r = 0; r < PER; ++r) acc[r] += __popc(As[ty + r * RY][k] & bk);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    int v = edge[r] ? acc[r] : 0;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    const int i = i0 + ty + r * RY;
    if (tx == 0 && v && i < n) atomicAdd(tri + i, v);
  }
}
}  // namespace

extern "C" void triangle_count_bitset(int n, const unsigned int* adj, int* tri, cudaStream_t stream) {
  if (n <= 0) return;
  const int W = (n + 31) / 32;
  tri_zero<<<(n + 255) / 256, 256, 0, stream>>>(n, tri);
  dim3 grid(W, W);  // tile t covers rows 32t..32t+31, so there are exactly W tiles per side
  tri_tile_kernel<<<grid, dim3(T, RY), 0, stream>>>(n, W, adj, tri);
}

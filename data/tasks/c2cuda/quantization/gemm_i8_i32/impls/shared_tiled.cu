// strategy: shared_tiled — 16x16 output tile per block, one output per thread; 16-row x 64-byte slabs of A and B staged in shared memory as packed int32 words (padded against bank conflicts) and consumed with __dp4a
#include <cuda_runtime.h>

namespace {

constexpr int TS = 16;      // output tile edge
constexpr int KW = 16;      // int32 words (4 int8 each) of k per stage -> 64 bytes

__device__ __forceinline__ int load_word(const signed char* row, int k, int p0, bool row_ok, bool aligned) {
  if (!row_ok) return 0;
  if (aligned) return p0 < k ? __ldg(reinterpret_cast<const int*>(row + p0)) : 0;
  unsigned int v = 0;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int p = p0 + q;
    const unsigned int byte = p < k ? (unsigned int)(unsigned char)__ldg(row + p) : 0u;
    v |= byte << (8 * q);
  }
  return (int)v;
}

__global__ void __launch_bounds__(TS * TS)
gemm_i8_tiled_kernel(int m, int n, int k, const signed char* __restrict__ a, const signed char* __restrict__ b,
                     int* __restrict__ c) {
  __shared__ int as[TS][KW + 1];
  __shared__ int bs[TS][KW + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i0 = blockIdx.y * TS, j0 = blockIdx.x * TS;
  const bool aligned = (k & 3) == 0;  // then every row start and every word is 4-byte aligned
  const int ar = i0 + ty, br = j0 + ty;
  const signed char* arow = a + (size_t)min(ar, m - 1) * k;
  const signed char* brow = b + (size_t)min(br, n - 1) * k;
  int acc = 0;
  for (int k0 = 0; k0 < k; k0 += 4 * KW) {
    as[ty][tx] = load_word(arow, k, k0 + 4 * tx, ar < m, aligned);
    bs[ty][tx] = load_word(brow, k, k0 + 4 * tx, br < n, aligned);
    __syncthreads();
#pragma unroll
    for (int w = 0; w < KW; ++w) acc = __dp4a(as[ty][w], bs[tx][w], acc);
    __syncthreads();
  }
  const int i = i0 + ty, j = j0 + tx;
  if (i < m && j < n) c[(size_t)i * n + j] = acc;
}

}  // namespace

extern "C" void gemm_i8_i32(int m, int n, int k, const signed char* a, const signed char* b, int* c,
                            cudaStream_t stream) {
  if (m <= 0 || n <= 0) return;
  dim3 block(TS, TS);
  dim3 grid((unsigned int)((n + TS - 1) / TS), (unsigned int)((m + TS - 1) / TS));
  gemm_i8_tiled_kernel<<<grid, block, 0, stream>>>(m, n, k, a, b, c);
}

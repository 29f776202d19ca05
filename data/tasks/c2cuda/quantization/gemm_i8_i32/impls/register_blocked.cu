// strategy: register_blocked — 128x128 block tile, 256 threads each owning an 8x8 register tile of int32 accumulators; 32-byte k slabs of A and B loaded with 128-bit reads (k % 16 == 0) and stored k-major in shared memory, 64 __dp4a per 16 shared-memory words read
#include <cuda_runtime.h>

namespace {

constexpr int BM = 128, BN = 128;
constexpr int BKW = 8;         // int32 words of k per slab (32 bytes)
constexpr int BKB = 4 * BKW;   // bytes of k per slab
constexpr int kThreads = 256;
constexpr int TM = 8, TN = 8;

// store one 16-byte chunk (4 words) of row `row`, words w0..w0+3, into a k-major tile
__device__ __forceinline__ void put4(int (*tile)[BM], int row, int w0, int4 v) {
  tile[w0 + 0][row] = v.x;
  tile[w0 + 1][row] = v.y;
  tile[w0 + 2][row] = v.z;
  tile[w0 + 3][row] = v.w;
}

template <bool VEC>
__device__ __forceinline__ void load_slab(int (*tile)[BM], const signed char* __restrict__ src, int nrows_total,
                                          int row0, int k, int k0, int tid) {
  if (VEC) {
    // 128 rows x 2 chunks of 16 bytes = 256 chunks, one per thread
    const int row = tid >> 1, part = tid & 1;
    const int gr = row0 + row, gk = k0 + 16 * part;
    int4 v = make_int4(0, 0, 0, 0);
    if (gr < nrows_total && gk < k) v = __ldg(reinterpret_cast<const int4*>(src + (size_t)gr * k + gk));
    put4(tile, row, 4 * part, v);
  } else {
    unsigned char* tb = reinterpret_cast<unsigned char*>(&tile[0][0]);
    for (int idx = tid; idx < BM * BKB; idx += kThreads) {
      const int row = idx / BKB, kb = idx % BKB;
      const int gr = row0 + row, gk = k0 + kb;
      const signed char v = (gr < nrows_total && gk < k) ? __ldg(src + (size_t)gr * k + gk) : (signed char)0;
      tb[((kb >> 2) * BM + row) * 4 + (kb & 3)] = (unsigned char)v;
    }
  }
}

template <bool VEC>
__global__ void __launch_bounds__(kThreads)
gemm_i8_regblock_kernel(int m, int n, int k, const signed char* __restrict__ a, const signed char* __restrict__ b,
                        int* __restrict__ c) {
  __shared__ int as[BKW][BM];
  __shared__ int bs[BKW][BN];
  const int tid = threadIdx.x;
  const int tx = tid & 15, ty = tid >> 4;  // thread owns rows ty + 16*i, cols tx + 16*j
  const int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
  int acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;

  for (int k0 = 0; k0 < k; k0 += BKB) {
    load_slab<VEC>(as, a, m, i0, k, k0, tid);
    load_slab<VEC>(bs, b, n, j0, k, k0, tid);
    __syncthreads();
#pragma unroll
    for (int w = 0; w < BKW; ++w) {
      int av[TM], bv[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) av[i] = as[w][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < TN; ++j) bv[j] = bs[w][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = __dp4a(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int gi = i0 + ty + 16 * i;
    if (gi >= m) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int gj = j0 + tx + 16 * j;
      if (gj < n) c[(size_t)gi * n + gj] = acc[i][j];
    }
  }
}

}  // namespace

extern "C" void gemm_i8_i32(int m, int n, int k, const signed char* a, const signed char* b, int* c,
                            cudaStream_t stream) {
  if (m <= 0 || n <= 0) return;
  dim3 grid((unsigned int)((n + BN - 1) / BN), (unsigned int)((m + BM - 1) / BM));
  if ((k & 15) == 0)
    gemm_i8_regblock_kernel<true><<<grid, kThreads, 0, stream>>>(m, n, k, a, b, c);
  else
    gemm_i8_regblock_kernel<false><<<grid, kThreads, 0, stream>>>(m, n, k, a, b, c);
}

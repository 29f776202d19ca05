// strategy: register_blocked — 64x64 block tiles with BK=16 slices, 256 threads each holding a 4x4 register micro-tile (outer products fed by double2 shared-memory reads, A slice stored k-major), zero-padded edges
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define NTHR 256

__global__ void __launch_bounds__(NTHR)
dgemm_regblock_kernel(int M, int N, int K, const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C) {
  __shared__ __align__(16) double As[BK][BM + 2];
  __shared__ __align__(16) double Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid & 15, ty = tid >> 4;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  double acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const int e = tid + l * NTHR;           // 0..1023
      const int ar = e >> 4, ak = e & 15;     // A slice: 64 rows x 16 k
      const int gr = row0 + ar, gk = k0 + ak;
      As[ak][ar] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.0;
      const int bk = e >> 6, bc = e & 63;     // B slice: 16 k x 64 columns
      const int gbk = k0 + bk, gc = col0 + bc;
      Bs[bk][bc] = (gbk < K && gc < N) ? B[(size_t)gbk * N + gc] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      // rows ty*2 + {0,1} and 32 + ty*2 + {0,1}; columns tx*2 + {0,1} and 32 + tx*2 + {0,1}
      const double2 a0 = *reinterpret_cast<const double2*>(&As[kk][ty * 2]);
      const double2 a1 = *reinterpret_cast<const double2*>(&As[kk][32 + ty * 2]);
      const double2 b0 = *reinterpret_cast<const double2*>(&Bs[kk][tx * 2]);
      const double2 b1 = *reinterpret_cast<const double2*>(&Bs[kk][32 + tx * 2]);
      const double a[4] = {a0.x, a0.y, a1.x, a1.y};
      const double b[4] = {b0.x, b0.y, b1.x, b1.y};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = row0 + (i < 2 ? ty * 2 + i : 32 + ty * 2 + (i - 2));
    if (r >= M) continue;
    double* crow = C + (size_t)r * N;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int c = col0 + (j < 2 ? tx * 2 + j : 32 + tx * 2 + (j - 2));
      if (c < N) crow[c] = acc[i][j];
    }
  }
}

extern "C" void dgemm_f64(int M, int N, int K, const double* A, const double* B, double* C, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  dgemm_regblock_kernel<<<grid, NTHR, 0, stream>>>(M, N, K, A, B, C);
}

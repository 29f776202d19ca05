// strategy: register_blocked — 128x128 block tiles with BK=8 slices, 256 threads each computing an 8x8 register micro-tile (outer products from shared memory, A slice stored k-major), double-buffered shared memory with register prefetch of the next slice, zero-padded edges
#include <cuda_runtime.h>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NTHR 256  // (BM/TM) * (BN/TN)

__global__ void __launch_bounds__(NTHR)
sgemm_regblock_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  __shared__ __align__(16) float As[2][BK][BM + 4];
  __shared__ __align__(16) float Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid & 15, ty = tid >> 4;  // 16 x 16 thread grid
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  // global->shared mapping: A slice 128 x 8 (each thread 4 elements), B slice 8 x 128 (each thread 4 elements)
  float ra[4], rb[4];
  auto load_regs = [&](int k0) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const int e = tid + l * NTHR;
      const int ar = e >> 3, ak = e & 7;  // A: row within tile, k within slice
      const int gr = row0 + ar, gk = k0 + ak;
      ra[l] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.f;
      const int bk = e >> 7, bc = e & 127;  // B: k within slice, column within tile
      const int gbk = k0 + bk, gc = col0 + bc;
      rb[l] = (gbk < K && gc < N) ? B[(size_t)gbk * N + gc] : 0.f;
    }
  };
  auto store_regs = [&](int buf) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const int e = tid + l * NTHR;
      As[buf][e & 7][e >> 3] = ra[l];
      Bs[buf][e >> 7][e & 127] = rb[l];
    }
  };

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

  const int nslices = (K + BK - 1) / BK;
  if (nslices > 0) {
    load_regs(0);
    store_regs(0);
  }
  __syncthreads();
  for (int s = 0; s < nslices; ++s) {
    const int buf = s & 1;
    if (s + 1 < nslices) load_regs((s + 1) * BK);  // global loads in flight during the math below
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
      // rows ty*4 + {0..3} and 64 + ty*4 + {0..3}; columns tx*4 + {0..3} and 64 + tx*4 + {0..3}
      const float4 a0 = *reinterpret_cast<const float4*>(&As[buf][kk][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[buf][kk][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[buf][kk][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[buf][kk][64 + tx * 4]);
      a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w;
      a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
      b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w;
      b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (s + 1 < nslices) store_regs(buf ^ 1);  // the other buffer was last read before the previous barrier
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
    if (r >= M) continue;
    float* crow = C + (size_t)r * N;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int c = col0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
      if (c < N) crow[c] = acc[i][j];
    }
  }
}

extern "C" void sgemm_f32(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm_regblock_kernel<<<grid, NTHR, 0, stream>>>(M, N, K, A, B, C);
}

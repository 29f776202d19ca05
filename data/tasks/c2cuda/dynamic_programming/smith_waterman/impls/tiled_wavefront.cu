// strategy: tiled_wavefront — one launch per anti-diagonal of 32x64 tiles; each tile is one warp that sweeps its cells by anti-diagonals with __shfl_up_sync (lane = row), stages the tile in shared memory and stores it coalesced
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu
#define TR 32
#define TC 64

__global__ void __launch_bounds__(32) sw_tile_kernel(int n, int m, int k, int ntc, int match, int mismatch, int gap,
                                                     const unsigned char* __restrict__ a,
                                                     const unsigned char* __restrict__ b, int* __restrict__ H) {
  __shared__ int top[TC];
  __shared__ int tile[TR * TC];  // row stride TC: the skewed writes tile[lane][st-lane] hit distinct banks
  const int lane = threadIdx.x;
  int tlo = k - (ntc - 1);
  if (tlo < 0) tlo = 0;
  const int ti = tlo + blockIdx.x;
  const int tj = k - ti;
  const int i0 = ti * TR, j0 = tj * TC;
  for (int c = lane; c < TC; c += 32) {
    int j = j0 + c;
    top[c] = (i0 > 0 && j < m) ? H[(long long)(i0 - 1) * m + j] : 0;
  }
  const int corner = (i0 > 0 && j0 > 0) ? H[(long long)(i0 - 1) * m + (j0 - 1)] : 0;
  const int i = i0 + lane;
  const int left = (j0 > 0 && i < n) ? H[(long long)i * m + (j0 - 1)] : 0;  // H[i][j0-1]
  const int sc = i < n ? (int)a[i] : 255;
  int val = left;
  int lastUp = __shfl_up_sync(FULL_MASK, left, 1);  // H[i-1][j0-1]
  if (lane == 0) lastUp = corner;
  __syncwarp();
  for (int st = 0; st < TC + TR - 1; ++st) {
    int up = __shfl_up_sync(FULL_MASK, val, 1);
    const int c = st - lane;
    if (c >= 0 && c < TC) {
      if (lane == 0) up = top[c];
      const int j = j0 + c;
      const int tc = j < m ? (int)__ldg(b + j) : 254;
      int v = lastUp + (sc == tc ? match : mismatch);
      v = max(v, up - gap);
      v = max(v, val - gap);
      v = max(v, 0);
      lastUp = up;
      val = v;
      tile[lane * TC + c] = v;
    }
    __syncwarp();
  }
  for (int r = 0; r < TR; ++r) {
    const int ii = i0 + r;
    if (ii >= n) break;
    for (int c = lane; c < TC; c += 32) {
      const int j = j0 + c;
      if (j < m) H[(long long)ii * m + j] = tile[r * TC + c];
    }
  }
}

extern "C" void smith_waterman(int n, int m, int match, int mismatch, int gap, const unsigned char* a,
                               const unsigned char* b, int* H, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const int ntr = (n + TR - 1) / TR;
  const int ntc = (m + TC - 1) / TC;
  for (int k = 0; k <= ntr + ntc - 2; ++k) {
    int tlo = k - (ntc - 1) > 0 ? k - (ntc - 1) : 0;
    int thi = k < ntr - 1 ? k : ntr - 1;
    sw_tile_kernel<<<thi - tlo + 1, 32, 0, stream>>>(n, m, k, ntc, match, mismatch, gap, a, b, H);
  }
}

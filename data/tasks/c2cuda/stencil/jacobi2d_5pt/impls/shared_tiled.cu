// strategy: shared_tiled — 32x8 output tiles; the (8+2)x(32+2) input tile with halo is staged in shared memory with coalesced loads
#include <cuda_runtime.h>

#define BX 32
#define BY 8

__global__ void __launch_bounds__(BX * BY) jacobi2d_shared_kernel(int n, int m, float w, const float* __restrict__ in,
                                                                  float* __restrict__ out) {
  __shared__ float tile[BY + 2][BX + 2];
  const int j0 = blockIdx.x * BX, i0 = blockIdx.y * BY;
  const int tid = threadIdx.y * BX + threadIdx.x;
  // tile[r][c] = in[clamp(i0-1+r)][clamp(j0-1+c)] (clamped values are only read by border cells, which ignore them)
  for (int e = tid; e < (BY + 2) * (BX + 2); e += BX * BY) {
    int r = e / (BX + 2), c = e % (BX + 2);
    int gi = min(max(i0 - 1 + r, 0), n - 1);
    int gj = min(max(j0 - 1 + c, 0), m - 1);
    tile[r][c] = in[(long long)gi * m + gj];
  }
  __syncthreads();
  const int i = i0 + threadIdx.y, j = j0 + threadIdx.x;
  if (i >= n || j >= m) return;
  const int r = threadIdx.y + 1, c = threadIdx.x + 1;
  long long k = (long long)i * m + j;
  if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
    out[k] = tile[r][c];
  } else {
    out[k] = w * (((tile[r - 1][c] + tile[r + 1][c]) + tile[r][c - 1]) + tile[r][c + 1]);
  }
}

extern "C" void jacobi2d_5pt(int n, int m, float w, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((m + BX - 1) / BX, (n + BY - 1) / BY);
  jacobi2d_shared_kernel<<<grid, block, 0, stream>>>(n, m, w, in, out);
}

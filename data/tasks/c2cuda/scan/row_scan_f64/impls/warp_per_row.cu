// strategy: warp_per_row — one warp per row (grid-stride over rows), 128 columns per step: four coalesced 32-wide loads in flight, each scanned with warp shuffles, carry broadcast from lane 31
#include <cuda_runtime.h>

__device__ __forceinline__ double warp_inclusive(double v, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    double t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

__global__ void row_warp(int rows, int cols, const double* __restrict__ x, double* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long wid = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = wid; r < rows; r += nwarps) {
    const double* xr = x + r * cols;
    double* orow = out + r * cols;
    double carry = 0.0;
    for (int c = 0; c < cols; c += 128) {
      double v[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        int i = c + 32 * k + lane;
        v[k] = (i < cols) ? xr[i] : 0.0;
      }
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        double inc = warp_inclusive(v[k], lane) + carry;
        int i = c + 32 * k + lane;
        if (i < cols) orow[i] = inc;
        carry = __shfl_sync(0xffffffffu, inc, 31);
      }
    }
  }
}

extern "C" void row_scan_f64(int rows, int cols, const double* x, double* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 256;
  const long long want = ((long long)rows * 32 + threads - 1) / threads;
  const int blocks = (int)(want < 65536 ? want : 65536);
  row_warp<<<blocks, threads, 0, stream>>>(rows, cols, x, out);
}

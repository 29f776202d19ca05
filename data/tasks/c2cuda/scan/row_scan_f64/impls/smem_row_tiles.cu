// strategy: smem_row_tiles — a block owns 32 rows and walks them in 32x64 tiles staged through shared memory with coalesced loads/stores; each thread register-blocks 8 consecutive columns of one row, and the 8 threads of a row combine with width-8 shuffles and carry the row total to the next tile
#include <cuda_runtime.h>

static constexpr int kRows = 32;             // rows per block
static constexpr int kCols = 64;             // columns per tile
static constexpr int kPer = 8;               // columns per thread
static constexpr int kGroup = kCols / kPer;  // threads per row = 8
static constexpr int kThreads = kRows * kGroup;
static constexpr int kPitch = kCols + 1;

__global__ void __launch_bounds__(kThreads) row_tiles(int rows, int cols, const double* __restrict__ x,
                                                      double* __restrict__ out) {
  __shared__ double tile[kRows * kPitch];
  const int tid = threadIdx.x;
  const int my_row = tid / kGroup;  // 0..31
  const int seg = tid % kGroup;     // 0..7; the 8 threads of a row share one 8-lane shuffle group
  const long long row0 = (long long)blockIdx.x * kRows;
  double carry = 0.0;
  for (int c0 = 0; c0 < cols; c0 += kCols) {
    // coalesced load: consecutive threads take consecutive columns of one row
#pragma unroll
    for (int k = 0; k < (kRows * kCols) / kThreads; ++k) {
      int idx = k * kThreads + tid;
      int r = idx / kCols, c = idx % kCols;
      long long gr = row0 + r;
      int gc = c0 + c;
      tile[r * kPitch + c] = (gr < rows && gc < cols) ? x[gr * cols + gc] : 0.0;
    }
    __syncthreads();
    double v[kPer];
    double s = 0.0;
#pragma unroll
    for (int j = 0; j < kPer; ++j) {
      s += tile[my_row * kPitch + seg * kPer + j];
      v[j] = s;
    }
    // inclusive scan of the 8 segment totals of this row
    double inc = s;
#pragma unroll
    for (int off = 1; off < kGroup; off <<= 1) {
      double t = __shfl_up_sync(0xffffffffu, inc, off, kGroup);
      if (seg >= off) inc += t;
    }
    const double row_total = __shfl_sync(0xffffffffu, inc, kGroup - 1, kGroup);
    const double ex = carry + (inc - s);
#pragma unroll
    for (int j = 0; j < kPer; ++j) tile[my_row * kPitch + seg * kPer + j] = ex + v[j];
    carry += row_total;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < (kRows * kCols) / kThreads; ++k) {
      int idx = k * kThreads + tid;
      int r = idx / kCols, c = idx % kCols;
      long long gr = row0 + r;
      int gc = c0 + c;
      if (gr < rows && gc < cols) out[gr * cols + gc] = tile[r * kPitch + c];
    }
    __syncthreads();
  }
}

extern "C" void row_scan_f64(int rows, int cols, const double* x, double* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  row_tiles<<<(rows + kRows - 1) / kRows, kThreads, 0, stream>>>(rows, cols, x, out);
}

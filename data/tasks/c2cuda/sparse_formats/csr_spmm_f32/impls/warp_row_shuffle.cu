// strategy: warp_row_shuffle — one warp per row: the warp loads 32 (colidx, val) pairs at a time with one coalesced load and broadcasts them by shuffle, every lane owns up to 4 output columns (j = lane + 32q) of a 128-wide panel so each nonzero's B row is read as coalesced 128-byte segments
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPanel = 128;

__global__ void __launch_bounds__(kThreads)
spmm_warp_kernel(int rows, int n, const int* __restrict__ rowptr, const int* __restrict__ colidx,
                 const float* __restrict__ vals, const float* __restrict__ B, float* __restrict__ C) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {  // warp-uniform
    const int b = __ldg(rowptr + r), e = __ldg(rowptr + r + 1);
    for (int j0 = 0; j0 < n; j0 += kPanel) {
      float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int kb = b; kb < e; kb += 32) {
        const int k = kb + lane;
        const int myc = k < e ? __ldg(colidx + k) : 0;
        const float myv = k < e ? __ldg(vals + k) : 0.0f;
        const int cnt = min(32, e - kb);  // warp-uniform
        for (int t = 0; t < cnt; ++t) {
          const int c = __shfl_sync(0xffffffffu, myc, t);
          const float v = __shfl_sync(0xffffffffu, myv, t);
          const float* brow = B + (size_t)c * (size_t)n + j0 + lane;
#pragma unroll
          for (int q = 0; q < 4; ++q)
            if (j0 + lane + 32 * q < n) acc[q] = fmaf(v, __ldg(brow + 32 * q), acc[q]);
        }
      }
      float* crow = C + (size_t)r * (size_t)n + j0 + lane;
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (j0 + lane + 32 * q < n) crow[32 * q] = acc[q];
    }
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void csr_spmm_f32(int rows, int cols, int n, int nnz, const int* rowptr, const int* colidx,
                             const float* vals, const float* B, float* C, cudaStream_t stream) {
  (void)cols;
  (void)nnz;
  if (rows <= 0 || n <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)rows + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 64LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  spmm_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, n, rowptr, colidx, vals, B, C);
}

// strategy: warp_row_regs — one warp per row keeps the row of A in registers (lane holds A[r, lane + 32q]); the row's nonzeros are fetched 32 at a time with one coalesced load and broadcast by shuffle, each B row is read as coalesced 128-byte segments, a butterfly reduction gives the dot product and lane t keeps result t so out is written with one coalesced store per 32 nonzeros
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

// Q = number of 32-wide chunks of K held in registers (K <= 32*Q); Q = 0: generic K, A read from global
template <int Q>
__global__ void __launch_bounds__(kThreads)
sddmm_warp_kernel(int rows, int K, const int* __restrict__ rowptr, const int* __restrict__ colidx,
                  const float* __restrict__ vals, const float* __restrict__ A, const float* __restrict__ B,
                  float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {  // warp-uniform
    const int b = __ldg(rowptr + r), e = __ldg(rowptr + r + 1);
    if (b == e) continue;
    const float* arow = A + (size_t)r * (size_t)K;
    float a[Q > 0 ? Q : 1];
    if (Q > 0) {
#pragma unroll
      for (int q = 0; q < (Q > 0 ? Q : 1); ++q) {
        const int t = lane + 32 * q;
        a[q] = t < K ? __ldg(arow + t) : 0.0f;
      }
    }
    for (int kb = b; kb < e; kb += 32) {
      const int k = kb + lane;
      const int myc = k < e ? __ldg(colidx + k) : 0;
      const float myv = k < e ? __ldg(vals + k) : 0.0f;
      const int cnt = min(32, e - kb);  // warp-uniform
      float mine = 0.0f;
      for (int i = 0; i < cnt; ++i) {
        const int c = __shfl_sync(0xffffffffu, myc, i);
        const float* brow = B + (size_t)c * (size_t)K;
        float s = 0.0f;
        if (Q > 0) {
#pragma unroll
          for (int q = 0; q < (Q > 0 ? Q : 1); ++q) {
            const int t = lane + 32 * q;
            if (t < K) s = fmaf(a[q], __ldg(brow + t), s);
          }
        } else {
          for (int t = lane; t < K; t += 32) s = fmaf(__ldg(arow + t), __ldg(brow + t), s);
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == i) mine = s;
      }
      if (k < e) out[k] = myv * mine;
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

extern "C" void sddmm_csr_f32(int rows, int cols, int K, int nnz, const int* rowptr, const int* colidx,
                              const float* vals, const float* A, const float* B, float* out, cudaStream_t stream) {
  (void)cols;
  (void)nnz;
  if (rows <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)rows + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 64LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  const unsigned int g = (unsigned int)blocks;
  if (K <= 32) sddmm_warp_kernel<1><<<g, kThreads, 0, stream>>>(rows, K, rowptr, colidx, vals, A, B, out);
  else if (K <= 64) sddmm_warp_kernel<2><<<g, kThreads, 0, stream>>>(rows, K, rowptr, colidx, vals, A, B, out);
  else if (K <= 128) sddmm_warp_kernel<4><<<g, kThreads, 0, stream>>>(rows, K, rowptr, colidx, vals, A, B, out);
  else if (K <= 256) sddmm_warp_kernel<8><<<g, kThreads, 0, stream>>>(rows, K, rowptr, colidx, vals, A, B, out);
  else sddmm_warp_kernel<0><<<g, kThreads, 0, stream>>>(rows, K, rowptr, colidx, vals, A, B, out);
}

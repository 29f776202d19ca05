// strategy: warp_column_axpy — column-oriented (axpy) substitution: a block stages T and a 32-column slab of B in shared memory (coalesced), each warp solves one right-hand side at a time with lanes owning rows lane and lane+32 in registers; each solved x_j is broadcast by __shfl_sync and every lower row is updated in parallel
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = 8;
constexpr int kSlab = 32;   // right-hand sides per block
constexpr int kSlabLd = 33;

__global__ void __launch_bounds__(kWarps * 32) trsm_axpy_kernel(int n, int nrhs, const float* __restrict__ T,
                                                                const float* __restrict__ B, float* __restrict__ X) {
  extern __shared__ float sm[];
  const int ld = (n & 1) ? n : n + 1;  // odd leading dimension: a column walk touches distinct banks
  float* Ts = sm;                      // n x ld
  float* Bs = sm + n * ld;             // n x kSlabLd
  const long long b = blockIdx.x;  // batch on x: gridDim.y is limited to 65535
  const int c0 = blockIdx.y * kSlab;
  const int cols = min(kSlab, nrhs - c0);
  const float* t = T + b * n * n;
  for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
    const int i = e / n, j = e - i * n;
    if (j <= i) Ts[i * ld + j] = __ldg(t + e) + (j == i ? (float)(n + 1) : 0.0f);
  }
  const float* rhs = B + b * n * nrhs + c0;
  for (int e = threadIdx.x; e < n * kSlab; e += blockDim.x) {
    const int i = e / kSlab, c = e - i * kSlab;
    if (c < cols) Bs[i * kSlabLd + c] = __ldcs(rhs + (long long)i * nrhs + c);
  }
  __syncthreads();

  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const int i0 = lane, i1 = lane + 32;
  for (int c = wid; c < cols; c += kWarps) {  // warp-uniform loop
    float r0 = i0 < n ? Bs[i0 * kSlabLd + c] : 0.0f;
    float r1 = i1 < n ? Bs[i1 * kSlabLd + c] : 0.0f;
    for (int j = 0; j < n; ++j) {
      const int hi = j >> 5;
      const float mine = hi ? r1 : r0;
      float xj = 0.0f;
      if (lane == (j & 31)) xj = mine / Ts[j * ld + j];
      xj = __shfl_sync(kFull, xj, j & 31);
      if (lane == (j & 31)) {
        if (hi) r1 = xj;
        else r0 = xj;
      }
      if (i0 > j && i0 < n) r0 -= Ts[i0 * ld + j] * xj;
      if (i1 > j && i1 < n) r1 -= Ts[i1 * ld + j] * xj;
    }
    if (i0 < n) Bs[i0 * kSlabLd + c] = r0;
    if (i1 < n) Bs[i1 * kSlabLd + c] = r1;
  }
  __syncthreads();
  float* out = X + b * n * nrhs + c0;
  for (int e = threadIdx.x; e < n * kSlab; e += blockDim.x) {
    const int i = e / kSlab, c = e - i * kSlab;
    if (c < cols) __stcs(out + (long long)i * nrhs + c, Bs[i * kSlabLd + c]);
  }
}

}  // namespace

extern "C" void trsm_lower_multi_rhs(int batch, int n, int nrhs, const float* T, const float* B, float* X,
                                     cudaStream_t stream) {
  if (batch <= 0 || n <= 0 || nrhs <= 0) return;
  const int ld = (n & 1) ? n : n + 1;
  const size_t smem = sizeof(float) * ((size_t)n * ld + (size_t)n * kSlabLd);
  dim3 grid((unsigned int)batch, (unsigned int)((nrhs + kSlab - 1) / kSlab));
  trsm_axpy_kernel<<<grid, kWarps * 32, smem, stream>>>(n, nrhs, T, B, X);
}

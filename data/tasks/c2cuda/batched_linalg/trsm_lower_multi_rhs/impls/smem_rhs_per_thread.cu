// strategy: smem_rhs_per_thread — block per (matrix, 64-column chunk): the lower triangle with reciprocal diagonal is staged once in shared memory, each thread owns one right-hand side and keeps its solved entries in a conflict-free shared column, dot-product (row-oriented) substitution with coalesced B/X rows
#include <cuda_runtime.h>

namespace {

constexpr int kChunk = 64;

__global__ void __launch_bounds__(kChunk) trsm_rhs_kernel(int n, int nrhs, const float* __restrict__ T,
                                                          const float* __restrict__ B, float* __restrict__ X) {
  extern __shared__ float sm[];
  const int ld = n + 1;
  float* Ts = sm;                 // n x ld, strict lower part; Ts[i][i] holds 1/diag
  float* xs = sm + n * ld;        // n x kChunk solved values, column per thread
  const long long b = blockIdx.x;  // batch on x: gridDim.y is limited to 65535
  const int c0 = blockIdx.y * kChunk;
  const float* t = T + b * n * n;
  for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
    const int i = e / n, j = e - i * n;
    if (j < i) Ts[i * ld + j] = __ldg(t + e);
    else if (j == i) Ts[i * ld + j] = 1.0f / (__ldg(t + e) + (float)(n + 1));
  }
  __syncthreads();
  const int c = c0 + threadIdx.x;
  if (c >= nrhs) return;
  const float* rhs = B + b * n * nrhs + c;
  float* out = X + b * n * nrhs + c;
  float* mine = xs + threadIdx.x;
  for (int i = 0; i < n; ++i) {
    const float* row = Ts + i * ld;
    float s0 = __ldcs(rhs + (long long)i * nrhs), s1 = 0.0f;
    int j = 0;
    for (; j + 1 < i; j += 2) {
      s0 -= row[j] * mine[j * kChunk];
      s1 -= row[j + 1] * mine[(j + 1) * kChunk];
    }
    if (j < i) s0 -= row[j] * mine[j * kChunk];
    const float xi = (s0 + s1) * row[i];
    mine[i * kChunk] = xi;
    __stcs(out + (long long)i * nrhs, xi);
  }
}

}  // namespace

extern "C" void trsm_lower_multi_rhs(int batch, int n, int nrhs, const float* T, const float* B, float* X,
                                     cudaStream_t stream) {
  if (batch <= 0 || n <= 0 || nrhs <= 0) return;
  const int threads = nrhs >= kChunk ? kChunk : ((nrhs + 31) / 32) * 32;
  const size_t smem = sizeof(float) * ((size_t)n * (n + 1) + (size_t)n * kChunk);
  dim3 grid((unsigned int)batch, (unsigned int)((nrhs + kChunk - 1) / kChunk));
  trsm_rhs_kernel<<<grid, threads, smem, stream>>>(n, nrhs, T, B, X);
}

// strategy: smem_left_looking — a block stages 8 consecutive matrices (one contiguous run) into shared memory with coalesced loads; each warp factors one matrix left-looking (column j: lanes i>=j take dot products of finished L rows in shared memory, the diagonal is broadcast by shuffle), L overwrites the lower half in place
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kMatsPerBlock = 8;
constexpr int kLd = 33;  // padded leading dimension

__global__ void __launch_bounds__(kMatsPerBlock * 32) cholesky_left_kernel(int batch, int n, const float* __restrict__ A,
                                                                            float* __restrict__ L) {
  __shared__ float s[kMatsPerBlock * 32 * kLd];
  const long long first = (long long)blockIdx.x * kMatsPerBlock;
  const int here = (int)min((long long)kMatsPerBlock, (long long)batch - first);
  const int nn = n * n;
  const int total = here * nn;
  const float* src = A + first * nn;
  for (int q = threadIdx.x; q < total; q += blockDim.x) {
    const int m = q / nn, r = q - m * nn;
    s[m * 32 * kLd + (r / n) * kLd + (r % n)] = __ldcs(src + q);
  }
  __syncthreads();

  const int wid = threadIdx.x >> 5, i = threadIdx.x & 31;
  if (wid < here) {
    float* S = s + wid * 32 * kLd;
    const int ri = min(i, n - 1);  // lanes past n mirror the last row; their results are discarded
    const float shift = (float)(n + 1);
    for (int j = 0; j < n; ++j) {
      // M[ri][j] from the untouched halves: S[ri][j] (lower, not yet overwritten) and S[j][ri] (upper, never written)
      float acc = 0.5f * (S[ri * kLd + j] + S[j * kLd + ri]) + (ri == j ? shift : 0.0f);
      for (int p = 0; p < j; ++p) acc -= S[ri * kLd + p] * S[j * kLd + p];
      const float d = sqrtf(__shfl_sync(kFull, acc, j));
      __syncwarp();  // all reads of column j done before it is overwritten
      if (i < n && i > j) S[i * kLd + j] = acc / d;
      if (i == j) S[i * kLd + j] = d;
      __syncwarp();
    }
  }
  __syncthreads();
  float* dst = L + first * nn;
  for (int q = threadIdx.x; q < total; q += blockDim.x) {
    const int m = q / nn, r = q - m * nn;
    const int row = r / n, col = r % n;
    __stcs(dst + q, col <= row ? s[m * 32 * kLd + row * kLd + col] : 0.0f);
  }
}

}  // namespace

extern "C" void cholesky_spd(int batch, int n, const float* A, float* L, cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  const long long blocks = ((long long)batch + kMatsPerBlock - 1) / kMatsPerBlock;
  cholesky_left_kernel<<<(unsigned int)blocks, kMatsPerBlock * 32, 0, stream>>>(batch, n, A, L);
}

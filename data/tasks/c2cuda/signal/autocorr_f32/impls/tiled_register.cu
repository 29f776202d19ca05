// strategy: tiled_register — 2-D tiling over (sample segment x lag group): each block stages a zero-padded x window in shared memory, each thread accumulates 8 consecutive lags with a sliding register window (one shared load per 8 FMAs, padded to avoid stride-8 bank conflicts); per-segment partials reduced in fixed order by a second kernel (deterministic)
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;
constexpr int kR = 8;                 // lags per thread
constexpr int kLB = kThreads * kR;    // lags per block
constexpr int kS = 2048;              // samples per segment
constexpr int kW = kS + kLB;          // window length
constexpr int kWS = kW + kW / 8 + 1;  // padded storage

__device__ __forceinline__ int pad(int j) { return j + (j >> 3); }

// partial[seg * lags + l] = sum over i in segment of x[i] * x[i + l]  (x treated as 0 outside [0, n))
__global__ void __launch_bounds__(kThreads) autocorr_tile_kernel(int n, int lags, const float* __restrict__ x,
                                                                 float* __restrict__ partial) {
  __shared__ float xa[kS];   // unshifted operand: xa[i] = x[i0 + i]
  __shared__ float xs[kWS];  // shifted operand window: element j = x[i0 + l0 + j], stored at pad(j)
  const int t = threadIdx.x;
  const int seg = blockIdx.x;
  const long long i0 = (long long)seg * kS;
  const int l0 = blockIdx.y * kLB;
  for (int j = t; j < kS; j += kThreads) {
    const long long g = i0 + j;
    xa[j] = (g < n) ? __ldg(x + g) : 0.0f;
  }
  for (int j = t; j < kW; j += kThreads) {
    const long long g = i0 + l0 + j;
    xs[pad(j)] = (g < n) ? __ldg(x + g) : 0.0f;
  }
  __syncthreads();
  // lag l0 + t*kR + r, sample i0 + i: product xa[i] * xs[i + t*kR + r]
  const int jb = t * kR;
  float acc[kR], w[kR];
#pragma unroll
  for (int r = 0; r < kR; ++r) {
    acc[r] = 0.0f;
    w[r] = xs[pad(jb + r)];
  }
#pragma unroll 8
  for (int i = 0; i < kS; ++i) {
    const float a = xa[i];
#pragma unroll
    for (int r = 0; r < kR; ++r) acc[r] = fmaf(a, w[r], acc[r]);
#pragma unroll
    for (int r = 0; r < kR - 1; ++r) w[r] = w[r + 1];
    // element jb + kR + i <= (kThreads-1)*kR + kR + kS - 1 = kW - 1
    w[kR - 1] = xs[pad(jb + kR + i)];
  }
#pragma unroll
  for (int r = 0; r < kR; ++r) {
    const int l = l0 + jb + r;
    if (l < lags) partial[(long long)seg * lags + l] = acc[r];
  }
}

__global__ void autocorr_finish_kernel(int nseg, int lags, const float* __restrict__ partial, float* __restrict__ r) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= lags) return;
  double s = 0.0;
  for (int g = 0; g < nseg; ++g) s += (double)partial[(long long)g * lags + l];
  r[l] = (float)s;
}

}  // namespace

extern "C" void autocorr_f32(int n, int lags, const float* x, float* r, cudaStream_t stream) {
  if (lags <= 0) return;
  const int nseg = (n > 0) ? (n + kS - 1) / kS : 1;
  float* partial = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&partial), sizeof(float) * (size_t)nseg * (size_t)lags, stream);
  dim3 grid((unsigned int)nseg, (unsigned int)((lags + kLB - 1) / kLB));
  autocorr_tile_kernel<<<grid, kThreads, 0, stream>>>(n, lags, x, partial);
  autocorr_finish_kernel<<<(lags + 255) / 256, 256, 0, stream>>>(nseg, lags, partial, r);
  cudaFreeAsync(partial, stream);
}

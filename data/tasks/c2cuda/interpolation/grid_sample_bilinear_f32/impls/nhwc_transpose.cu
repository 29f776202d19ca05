// strategy: nhwc_transpose — first a 32x32 shared-memory tiled transpose rewrites the input as NHWC in stream-ordered scratch, so each bilinear corner becomes one contiguous channel vector; then a block samples 32 output pixels with warp lanes over channels (one 128-byte gather per corner and warp), collects the results in a padded shared tile and writes them back to NCHW with coalesced stores
#include <cuda_runtime.h>

namespace {

constexpr int kTile = 32;

__global__ void nchw_to_nhwc_kernel(int c, long long hw, const float* __restrict__ in, float* __restrict__ tmp) {
  __shared__ float tile[kTile][kTile + 1];
  const int b = blockIdx.z;
  const long long p0 = (long long)blockIdx.x * kTile;
  const int c0 = blockIdx.y * kTile;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    const int ch = c0 + j;
    const long long p = p0 + threadIdx.x;
    if (ch < c && p < hw) tile[j][threadIdx.x] = __ldg(in + ((size_t)b * c + ch) * hw + p);
  }
  __syncthreads();
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    const long long p = p0 + j;
    const int ch = c0 + threadIdx.x;
    if (p < hw && ch < c) tmp[((size_t)b * hw + p) * c + ch] = tile[threadIdx.x][j];
  }
}

constexpr int kSampleThreads = 256;
constexpr int kWarps = kSampleThreads / 32;

__global__ void __launch_bounds__(kSampleThreads)
nhwc_sample_kernel(int c, int h, int w, int ho, int wo, const float* __restrict__ nhwc, const float* __restrict__ grid,
                   float* __restrict__ out) {
  __shared__ int soff[4][kTile];
  __shared__ float swt[4][kTile];
  __shared__ float res[kTile][kTile + 1];
  const int b = blockIdx.y;
  const long long plane_out = (long long)ho * wo;
  const long long p0 = (long long)blockIdx.x * kTile;
  const int tid = threadIdx.x;
  if (tid < kTile) {
    const long long p = p0 + tid;
    float wt[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int off[4] = {0, 0, 0, 0};
    if (p < plane_out) {
      const float gx = __ldg(grid + ((size_t)b * plane_out + p) * 2);
      const float gy = __ldg(grid + ((size_t)b * plane_out + p) * 2 + 1);
      const double ix = (((double)gx + 1.0) * w - 1.0) * 0.5;
      const double iy = (((double)gy + 1.0) * h - 1.0) * 0.5;
      const double xf = floor(ix), yf = floor(iy);
      const float fx = (float)(ix - xf), fy = (float)(iy - yf);
      const int x0 = (int)fmax(fmin(xf, (double)w), -2.0);
      const int y0 = (int)fmax(fmin(yf, (double)h), -2.0);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int yy = y0 + (k >> 1), xx = x0 + (k & 1);
        if (yy >= 0 && yy < h && xx >= 0 && xx < w) {
          wt[k] = ((k >> 1) ? fy : 1.0f - fy) * ((k & 1) ? fx : 1.0f - fx);
          off[k] = yy * w + xx;
        }
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      swt[k][tid] = wt[k];
      soff[k][tid] = off[k];
    }
  }
  __syncthreads();
  const int warp = tid >> 5, lane = tid & 31;
  const float* base = nhwc + (size_t)b * h * w * c;
  for (int c0 = 0; c0 < c; c0 += kTile) {
    const int ch = c0 + lane;
    for (int pp = warp; pp < kTile; pp += kWarps) {
      float v = 0.0f;
      if (ch < c) {
#pragma unroll
        for (int k = 0; k < 4; ++k) v += swt[k][pp] * __ldg(base + (size_t)soff[k][pp] * c + ch);
      }
      res[lane][pp] = v;
    }
    __syncthreads();
    for (int i = tid; i < kTile * kTile; i += kSampleThreads) {
      const int cl = i >> 5, pp = i & 31;
      const long long p = p0 + pp;
      if (c0 + cl < c && p < plane_out) __stcs(out + ((size_t)b * c + c0 + cl) * plane_out + p, res[cl][pp]);
    }
    __syncthreads();
  }
}

}  // namespace

extern "C" void grid_sample_bilinear_f32(int n, int c, int h, int w, int ho, int wo, const float* in,
                                         const float* grid, float* out, cudaStream_t stream) {
  const long long plane_out = (long long)ho * wo;
  const long long hw = (long long)h * w;
  if (n <= 0 || c <= 0 || plane_out <= 0) return;
  float* nhwc = nullptr;
  if (cudaMallocAsync((void**)&nhwc, (size_t)n * hw * c * sizeof(float), stream) != cudaSuccess) return;
  dim3 tb(kTile, 8);
  dim3 tg((unsigned int)((hw + kTile - 1) / kTile), (c + kTile - 1) / kTile, n);
  nchw_to_nhwc_kernel<<<tg, tb, 0, stream>>>(c, hw, in, nhwc);
  dim3 sg((unsigned int)((plane_out + kTile - 1) / kTile), n);
  nhwc_sample_kernel<<<sg, kSampleThreads, 0, stream>>>(c, h, w, ho, wo, nhwc, grid, out);
  cudaFreeAsync(nhwc, stream);
}

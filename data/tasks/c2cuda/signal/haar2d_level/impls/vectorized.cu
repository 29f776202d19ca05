// strategy: vectorized — grid-stride loop, each thread handles two horizontally adjacent 2x2 blocks with float4 streaming loads from both rows and float2 streaming stores into each subband (scalar float2-load fallback when w2 is odd and the subband rows are not 8-byte aligned)
#include <cuda_runtime.h>

namespace {

__device__ __forceinline__ void haar_pair(float4 t, float4 b, float2& ll, float2& hl, float2& lh, float2& hh) {
  const float s0 = t.x + t.y, d0 = t.x - t.y, s1 = b.x + b.y, d1 = b.x - b.y;  // block j
  const float s2 = t.z + t.w, d2 = t.z - t.w, s3 = b.z + b.w, d3 = b.z - b.w;  // block j+1
  ll = make_float2(0.5f * (s0 + s1), 0.5f * (s2 + s3));
  hl = make_float2(0.5f * (d0 + d1), 0.5f * (d2 + d3));
  lh = make_float2(0.5f * (s0 - s1), 0.5f * (s2 - s3));
  hh = make_float2(0.5f * (d0 - d1), 0.5f * (d2 - d3));
}

// w2 even: rows of in are w2/2 float4 long, subband rows start at even float offsets
__global__ void __launch_bounds__(256) haar2d_vec_kernel(int h2, int w2, const float4* __restrict__ in,
                                                         float* __restrict__ out) {
  const int pairs = w2 >> 1;  // pairs of 2x2 blocks per row
  const long long total = (long long)h2 * pairs;
  const long long w = 2LL * w2;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total;
       e += (long long)gridDim.x * blockDim.x) {
    const long long i = e / pairs;
    const int p = (int)(e - i * pairs);
    const float4 t = __ldcs(in + (2 * i) * pairs + p);
    const float4 b = __ldcs(in + (2 * i + 1) * pairs + p);
    float2 ll, hl, lh, hh;
    haar_pair(t, b, ll, hl, lh, hh);
    const int j = 2 * p;
    __stcs(reinterpret_cast<float2*>(out + i * w + j), ll);
    __stcs(reinterpret_cast<float2*>(out + i * w + w2 + j), hl);
    __stcs(reinterpret_cast<float2*>(out + (h2 + i) * w + j), lh);
    __stcs(reinterpret_cast<float2*>(out + (h2 + i) * w + w2 + j), hh);
  }
}

// w2 odd: one 2x2 block per iteration with float2 loads and scalar stores
__global__ void __launch_bounds__(256) haar2d_odd_kernel(int h2, int w2, const float2* __restrict__ in,
                                                         float* __restrict__ out) {
  const long long total = (long long)h2 * w2;
  const long long w = 2LL * w2;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total;
       e += (long long)gridDim.x * blockDim.x) {
    const long long i = e / w2;
    const int j = (int)(e - i * w2);
    const float2 t = __ldcs(in + (2 * i) * w2 + j);
    const float2 b = __ldcs(in + (2 * i + 1) * w2 + j);
    const float s0 = t.x + t.y, d0 = t.x - t.y, s1 = b.x + b.y, d1 = b.x - b.y;
    out[i * w + j] = 0.5f * (s0 + s1);
    out[i * w + w2 + j] = 0.5f * (d0 + d1);
    out[(h2 + i) * w + j] = 0.5f * (s0 - s1);
    out[(h2 + i) * w + w2 + j] = 0.5f * (d0 - d1);
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

extern "C" void haar2d_level(int h2, int w2, const float* in, float* out, cudaStream_t stream) {
  if (h2 <= 0 || w2 <= 0) return;
  const int threads = 256;
  const long long items = (w2 % 2 == 0) ? (long long)h2 * (w2 / 2) : (long long)h2 * w2;
  long long blocks = (items + threads - 1) / threads;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  if (w2 % 2 == 0)
    haar2d_vec_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(h2, w2, reinterpret_cast<const float4*>(in), out);
  else
    haar2d_odd_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(h2, w2, reinterpret_cast<const float2*>(in), out);
}

// strategy: chunk_recurrence — one warp per integral, each lane owns contiguous chunks of <= 64 points: exp and cos are evaluated exactly only at the chunk start, then advanced by recurrences (g_{k+1} = g_k*q_k, q_{k+1} = q_k*exp(-2ah^2) for the Gaussian, a rotation by b*h for the cosine), so the inner loop is a handful of multiply-adds; shuffle reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;
constexpr int kMaxChunk = 64;

__global__ void __launch_bounds__(kThreads)
simpson_recur_kernel(int n, int m, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  const float h = 1.0f / (float)m;
  const int pts = m + 1;
  int chunk = (pts + 31) / 32;
  if (chunk > kMaxChunk) chunk = kMaxChunk;
  const int nchunks = (pts + chunk - 1) / chunk;
  for (int i = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < n; i += warps_total) {
    const float ai = __ldg(a + i), bi = __ldg(b + i);
    const float ah2 = ai * h * h;
    const float r = expf(-2.0f * ah2);
    float sp, cp;
    sincosf(bi * h, &sp, &cp);
    float total = 0.0f;
    for (int c = lane; c < nchunks; c += 32) {
      const int k0 = c * chunk;
      const int k1 = min(k0 + chunk, pts);
      const float x0 = (float)k0 * h;
      float g = expf(-ai * x0 * x0);
      float q = expf(-ah2 * (float)(2 * k0 + 1));
      float sn, cs;
      sincosf(bi * x0, &sn, &cs);
      float acc = 0.0f;
      for (int k = k0; k < k1; ++k) {
        const float w = (k == 0 || k == m) ? 1.0f : ((k & 1) ? 4.0f : 2.0f);
        acc = fmaf(w * g, cs, acc);
        g *= q;
        q *= r;
        const float ncs = cs * cp - sn * sp;
        sn = sn * cp + cs * sp;
        cs = ncs;
      }
      total += acc;
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) total += __shfl_xor_sync(0xffffffffu, total, off);
    if (lane == 0) out[i] = total * h * (1.0f / 3.0f);
  }
}

}  // namespace

extern "C" void simpson_gauss_cos(int n, int m, const float* a, const float* b, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int warps_per_block = kThreads / 32;
  int blocks = (n + warps_per_block - 1) / warps_per_block;
  if (blocks > 132 * 32) blocks = 132 * 32;
  simpson_recur_kernel<<<blocks, kThreads, 0, stream>>>(n, m, a, b, out);
}

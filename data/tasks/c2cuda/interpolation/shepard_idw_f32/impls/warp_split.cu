// strategy: warp_split — a warp owns 8 queries held in registers and its lanes split the samples between them (lane-strided, coalesced read-only loads), each lane keeping 8 partial numerator/denominator pairs that a butterfly shuffle reduction combines at the end; suits few queries against many samples
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kQ = 8;

__global__ void __launch_bounds__(kThreads)
shepard_warp_kernel(int ns, int nq, float eps, const float* __restrict__ sx, const float* __restrict__ sy,
                    const float* __restrict__ sv, const float* __restrict__ qx, const float* __restrict__ qy,
                    float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long)blockIdx.x * kThreads + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * kThreads) >> 5;
  for (long long qb = warp * kQ; qb < nq; qb += nwarps * kQ) {  // warp-uniform loop
    float x[kQ], y[kQ], num[kQ], den[kQ];
#pragma unroll
    for (int j = 0; j < kQ; ++j) {
      const long long qi = qb + j;
      x[j] = qi < nq ? __ldg(qx + qi) : 0.0f;
      y[j] = qi < nq ? __ldg(qy + qi) : 0.0f;
      num[j] = 0.0f;
      den[j] = 0.0f;
    }
    for (int i = lane; i < ns; i += 32) {
      const float a = __ldg(sx + i), b = __ldg(sy + i), v = __ldg(sv + i);
#pragma unroll
      for (int j = 0; j < kQ; ++j) {
        const float dx = x[j] - a, dy = y[j] - b;
        const float w = __frcp_rn(dx * dx + dy * dy + eps);
        num[j] = fmaf(w, v, num[j]);
        den[j] += w;
      }
    }
#pragma unroll
    for (int j = 0; j < kQ; ++j) {
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) {
        num[j] += __shfl_xor_sync(0xffffffffu, num[j], off);
        den[j] += __shfl_xor_sync(0xffffffffu, den[j], off);
      }
    }
#pragma unroll
    for (int j = 0; j < kQ; ++j)
      if (lane == j && qb + j < nq) out[qb + j] = num[j] / den[j];
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

extern "C" void shepard_idw_f32(int ns, int nq, float eps, const float* sx, const float* sy, const float* sv,
                                const float* qx, const float* qy, float* out, cudaStream_t stream) {
  if (nq <= 0) return;
  const long long warps_needed = ((long long)nq + kQ - 1) / kQ;
  long long blocks = (warps_needed + kThreads / 32 - 1) / (kThreads / 32);
  const long long cap = 16LL * sm_count();
  if (blocks > cap) blocks = cap;
  shepard_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(ns, nq, eps, sx, sy, sv, qx, qy, out);
}

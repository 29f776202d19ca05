// strategy: polyphase_shared — polyphase decomposition y = sum_p corr(x_p, h_p) with x_p[s] = x[s*dec + p], h_p[r] = h[r*dec + p]: each block stages a coalesced x window de-interleaved by phase (and the matching h slices) in shared memory, so the 256 threads of a block read consecutive words (bank-conflict free for any dec) and h is a broadcast
#include <cuda_runtime.h>

namespace {

constexpr int kB = 256;              // outputs (threads) per block
constexpr int kRC = 32;              // taps per phase per chunk
constexpr int kXL = kB + kRC - 1;    // phase window length

__global__ void __launch_bounds__(kB) firdec_poly_kernel(int nout, int taps, int dec, const float* __restrict__ h,
                                                         const float* __restrict__ x, float* __restrict__ y) {
  extern __shared__ float smem[];
  float* xs = smem;                  // dec * kXL, phase p at xs + p*kXL
  float* hs = smem + dec * kXL;      // dec * kRC, phase p at hs + p*kRC
  const int t = threadIdx.x;
  const long long q0 = (long long)blockIdx.x * kB;
  const long long xlen = (long long)(nout - 1) * dec + taps;
  const int tp = (taps + dec - 1) / dec;  // taps per phase (zero padded)
  float acc = 0.0f;
  for (int r0 = 0; r0 < tp; r0 += kRC) {
    __syncthreads();
    for (int e = t; e < dec * kRC; e += kB) {
      const int p = e / kRC, rr = e - p * kRC;
      const long long kk = (long long)(r0 + rr) * dec + p;
      hs[e] = (kk < taps) ? __ldg(h + kk) : 0.0f;
    }
    // global x[(q0 + r0)*dec + e] is phase e % dec, position e / dec of this chunk's window
    const long long g0 = (q0 + r0) * dec;
    for (int e = t; e < dec * kXL; e += kB) {
      const long long g = g0 + e;
      const int s = e / dec, p = e - s * dec;
      xs[p * kXL + s] = (g < xlen) ? __ldg(x + g) : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < dec; ++p) {
      const float* xp = xs + p * kXL + t;
      const float* hp = hs + p * kRC;
#pragma unroll
      for (int rr = 0; rr < kRC; ++rr) acc = fmaf(hp[rr], xp[rr], acc);
    }
  }
  const long long q = q0 + t;
  if (q < nout) y[q] = acc;
}

}  // namespace

extern "C" void fir_decimate_f32(int nout, int taps, int dec, const float* h, const float* x, float* y,
                                 cudaStream_t stream) {
  if (nout <= 0) return;
  const size_t smem = sizeof(float) * (size_t)dec * (kXL + kRC);  // <= 40 KiB for dec <= 32
  const unsigned int blocks = (unsigned int)((nout + kB - 1) / kB);
  firdec_poly_kernel<<<blocks, kB, smem, stream>>>(nout, taps, dec, h, x, y);
}

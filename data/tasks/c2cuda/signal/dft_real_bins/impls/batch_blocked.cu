// strategy: batch_blocked — register blocking across signals: each thread computes one bin for 8 signals at once, so every twiddle lookup from the shared-memory table feeds 16 FMAs; the 8 signals are staged in 512-sample chunks, interleaved by signal so each sample step is two broadcast float4 reads
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSig = 8;     // signals per block
constexpr int kJC = 512;    // samples per staged chunk

__global__ void __launch_bounds__(kThreads) dft_blocked_kernel(int batch, int n, int nbins,
                                                               const float* __restrict__ x, float* __restrict__ out) {
  extern __shared__ float4 dft_smem4[];
  float4* xs = dft_smem4;                                         // kJC * 2 float4: xs[2*jj + h] = signals 4h..4h+3
  float2* tw = reinterpret_cast<float2*>(dft_smem4 + 2 * kJC);    // n entries
  float* xsf = reinterpret_cast<float*>(xs);
  const int t = threadIdx.x;
  const int b0 = blockIdx.y * kSig;
  for (int r = t; r < n; r += kThreads) {
    float sn, cs;
    sincospif(2.0f * (float)r / (float)n, &sn, &cs);
    tw[r] = make_float2(cs, -sn);
  }
  const int k = blockIdx.x * kThreads + t;
  const int kk = (k < nbins) ? k : nbins - 1;
  float re[kSig], im[kSig];
#pragma unroll
  for (int s = 0; s < kSig; ++s) re[s] = im[s] = 0.0f;
  int idx = 0;  // (j * kk) mod n, carried across chunks
  for (int j0 = 0; j0 < n; j0 += kJC) {
    __syncthreads();  // previous chunk consumed (and, on the first pass, the table is written)
    for (int e = t; e < kSig * kJC; e += kThreads) {
      const int s = e / kJC, jj = e - s * kJC;
      const int b = b0 + s, j = j0 + jj;
      xsf[jj * kSig + s] = (b < batch && j < n) ? __ldg(x + (long long)b * n + j) : 0.0f;
    }
    __syncthreads();
    const int len = min(kJC, n - j0);
    for (int jj = 0; jj < len; ++jj) {
      const float2 w = tw[idx];
      idx += kk;
      if (idx >= n) idx -= n;
      const float4 lo = xs[2 * jj], hi = xs[2 * jj + 1];
      re[0] = fmaf(lo.x, w.x, re[0]); im[0] = fmaf(lo.x, w.y, im[0]);
      re[1] = fmaf(lo.y, w.x, re[1]); im[1] = fmaf(lo.y, w.y, im[1]);
      re[2] = fmaf(lo.z, w.x, re[2]); im[2] = fmaf(lo.z, w.y, im[2]);
      re[3] = fmaf(lo.w, w.x, re[3]); im[3] = fmaf(lo.w, w.y, im[3]);
      re[4] = fmaf(hi.x, w.x, re[4]); im[4] = fmaf(hi.x, w.y, im[4]);
      re[5] = fmaf(hi.y, w.x, re[5]); im[5] = fmaf(hi.y, w.y, im[5]);
      re[6] = fmaf(hi.z, w.x, re[6]); im[6] = fmaf(hi.z, w.y, im[6]);
      re[7] = fmaf(hi.w, w.x, re[7]); im[7] = fmaf(hi.w, w.y, im[7]);
    }
  }
  if (k < nbins) {
#pragma unroll
    for (int s = 0; s < kSig; ++s) {
      const int b = b0 + s;
      if (b < batch) reinterpret_cast<float2*>(out)[(long long)b * nbins + k] = make_float2(re[s], im[s]);
    }
  }
}

}  // namespace

extern "C" void dft_real_bins(int batch, int n, int nbins, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0 || nbins <= 0) return;
  const size_t smem = sizeof(float4) * 2 * kJC + sizeof(float2) * (size_t)n;  // 48 KiB at n = 4096
  dim3 grid((unsigned int)((nbins + kThreads - 1) / kThreads), (unsigned int)((batch + kSig - 1) / kSig));
  dft_blocked_kernel<<<grid, kThreads, smem, stream>>>(batch, n, nbins, x, out);
}

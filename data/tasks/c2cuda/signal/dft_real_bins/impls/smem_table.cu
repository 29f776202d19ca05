// strategy: smem_table — one block per (signal, 256-bin chunk): the signal and an n-entry twiddle table exp(-2*pi*i*r/n) are staged in shared memory; each thread walks its bin with an incremental (j*k mod n) index (add + conditional subtract), x reads are broadcasts
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) dft_table_kernel(int n, int nbins, const float* __restrict__ x,
                                                             float* __restrict__ out) {
  extern __shared__ float2 dft_smem[];
  float2* tw = dft_smem;                                   // n entries
  float* xs = reinterpret_cast<float*>(dft_smem + n);      // n entries
  const int b = blockIdx.y;
  const int t = threadIdx.x;
  const float* xb = x + (long long)b * n;
  for (int r = t; r < n; r += kThreads) {
    float sn, cs;
    sincospif(2.0f * (float)r / (float)n, &sn, &cs);
    tw[r] = make_float2(cs, -sn);
    xs[r] = __ldg(xb + r);
  }
  __syncthreads();
  const int k = blockIdx.x * kThreads + t;
  const int kk = (k < nbins) ? k : nbins - 1;
  float re0 = 0.0f, im0 = 0.0f, re1 = 0.0f, im1 = 0.0f;
  int idx = 0;
  int j = 0;
  for (; j + 1 < n; j += 2) {
    const float2 w0 = tw[idx];
    idx += kk;
    if (idx >= n) idx -= n;
    const float2 w1 = tw[idx];
    idx += kk;
    if (idx >= n) idx -= n;
    const float a0 = xs[j], a1 = xs[j + 1];
    re0 = fmaf(a0, w0.x, re0);
    im0 = fmaf(a0, w0.y, im0);
    re1 = fmaf(a1, w1.x, re1);
    im1 = fmaf(a1, w1.y, im1);
  }
  if (j < n) {
    const float2 w0 = tw[idx];
    re0 = fmaf(xs[j], w0.x, re0);
    im0 = fmaf(xs[j], w0.y, im0);
  }
  if (k < nbins) reinterpret_cast<float2*>(out)[(long long)b * nbins + k] = make_float2(re0 + re1, im0 + im1);
}

}  // namespace

extern "C" void dft_real_bins(int batch, int n, int nbins, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0 || nbins <= 0) return;
  const size_t smem = (size_t)n * (sizeof(float2) + sizeof(float));  // 48 KiB at n = 4096
  dim3 grid((unsigned int)((nbins + kThreads - 1) / kThreads), (unsigned int)batch);
  dft_table_kernel<<<grid, kThreads, smem, stream>>>(n, nbins, x, out);
}

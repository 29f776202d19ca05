// strategy: shared_block — one block per signal (dynamic shared memory sized to 1.5n complex values): coalesced float2 load scattered into bit-reversed shared-memory positions, an n/2-entry twiddle table built once in shared memory, all logn stages in shared memory between __syncthreads, one coalesced store
#include <cuda_runtime.h>

namespace {

constexpr int kMaxN = 4096;
constexpr int kMaxThreads = 256;

__device__ __forceinline__ unsigned int fft_rev(unsigned int v, int logn) {
  return logn == 0 ? 0u : (__brev(v) >> (32 - logn));
}

__global__ void __launch_bounds__(kMaxThreads) fft_shared_kernel(int logn, const float2* __restrict__ x,
                                                                 float2* __restrict__ y) {
  extern __shared__ float2 fft_smem[];
  const int n = 1 << logn;
  float2* buf = fft_smem;       // n entries
  float2* tw = fft_smem + n;    // n/2 entries
  const int half = n >> 1;
  const int t = threadIdx.x;
  const int nt = blockDim.x;
  const float2* xs = x + ((long long)blockIdx.x << logn);
  float2* ys = y + ((long long)blockIdx.x << logn);
  for (int j = t; j < n; j += nt) buf[fft_rev((unsigned int)j, logn)] = __ldg(xs + j);
  // tw[k] = exp(-2*pi*i*k/n); stage with half-size hs uses tw[k * (n / (2*hs))]
  for (int k = t; k < half; k += nt) {
    float s, c;
    sincospif(-2.0f * (float)k / (float)n, &s, &c);
    tw[k] = make_float2(c, s);
  }
  for (int s = 0; s < logn; ++s) {
    __syncthreads();
    const int hs = 1 << s;
    const int shift = logn - 1 - s;  // log2(n / (2*hs))
    for (int p = t; p < half; p += nt) {
      const int k = p & (hs - 1);
      const int i0 = ((p >> s) << (s + 1)) + k, i1 = i0 + hs;
      const float2 w = tw[k << shift];
      const float2 a = buf[i0], v = buf[i1];
      const float br = v.x * w.x - v.y * w.y, bi = v.x * w.y + v.y * w.x;
      buf[i0] = make_float2(a.x + br, a.y + bi);
      buf[i1] = make_float2(a.x - br, a.y - bi);
    }
  }
  __syncthreads();
  for (int j = t; j < n; j += nt) ys[j] = buf[j];
}

}  // namespace

extern "C" void fft_radix2_batch(int batch, int logn, const float* x, float* y, cudaStream_t stream) {
  if (batch <= 0) return;
  const int n = 1 << logn;
  int threads = n / 2;
  if (threads < 32) threads = 32;
  if (threads > kMaxThreads) threads = kMaxThreads;
  const size_t smem = sizeof(float2) * (size_t)(n + n / 2);  // 48 KiB at n = kMaxN
  fft_shared_kernel<<<(unsigned int)batch, threads, smem, stream>>>(logn, reinterpret_cast<const float2*>(x),
                                                                  reinterpret_cast<float2*>(y));
}

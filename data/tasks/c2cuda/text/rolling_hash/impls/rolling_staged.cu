// strategy: rolling_staged — each thread owns 16 consecutive windows: one Horner pass for the first, then O(1) rolling updates h' = (h - v_out*B^(w-1))*B + v_in; results are transposed through a padded shared-memory buffer so the 64-bit stores to global are coalesced
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPer = 16;                   // windows per thread
constexpr int kTile = kThreads * kPer;     // windows per block
constexpr int kPitch = kThreads + 1;       // padded row of the staging buffer

__global__ void __launch_bounds__(kThreads)
rolling_staged_kernel(long long n, int w, unsigned long long B, unsigned long long Bw1,
                      const unsigned char* __restrict__ text, unsigned long long* __restrict__ h) {
  __shared__ unsigned long long stage[kPer * kPitch];
  const long long nout = n - w + 1;
  const long long b0 = (long long)blockIdx.x * kTile;
  const int t = threadIdx.x;
  const long long s = b0 + (long long)t * kPer;
  if (s < nout) {
    unsigned long long acc = 0;
    for (int j = 0; j < w; ++j) acc = acc * B + (unsigned long long)__ldg(text + s + j) + 1ull;
    stage[t] = acc;  // row 0
    const int here = (nout - s < kPer) ? (int)(nout - s) : kPer;
    for (int j = 1; j < here; ++j) {
      const long long i = s + j - 1;  // window i -> window i+1
      const unsigned long long vout = (unsigned long long)__ldg(text + i) + 1ull;
      const unsigned long long vin = (unsigned long long)__ldg(text + i + w) + 1ull;
      acc = (acc - vout * Bw1) * B + vin;
      stage[j * kPitch + t] = acc;
    }
  }
  __syncthreads();
  for (int r = 0; r < kPer; ++r) {
    const int o = t + r * kThreads;  // window b0 + o, owned by thread o / kPer, slot o % kPer
    const long long g = b0 + o;
    if (g < nout) h[g] = stage[(o % kPer) * kPitch + (o / kPer)];
  }
}

}  // namespace

extern "C" void rolling_hash(long long n, int w, unsigned long long B, const unsigned char* text,
                             unsigned long long* h, cudaStream_t stream) {
  if (w < 1 || w > n) return;
  unsigned long long Bw1 = 1ull;
  for (int j = 0; j < w - 1; ++j) Bw1 *= B;
  const long long nout = n - w + 1;
  const long long blocks = (nout + kTile - 1) / kTile;
  rolling_staged_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, w, B, Bw1, text, h);
}

// strategy: warp_aggregated — boundaries staged once per persistent block in shared memory and searched branch-free there; the counts skip any shared histogram: lanes of a warp that hit the same bucket are grouped with __match_any_sync and only the group leader issues one global atomicAdd of the group size
#include <cuda_runtime.h>

namespace {

constexpr int kMaxB = 4096;
constexpr int kThreads = 256;

__global__ void zero_counts(int nb, int* counts) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j <= nb) counts[j] = 0;
}

__global__ void __launch_bounds__(kThreads)
bucketize_warp_agg(int n, int nb, int pow2, const float* __restrict__ x, const float* __restrict__ b,
                   int* __restrict__ idx, int* __restrict__ counts) {
  __shared__ float sb[kMaxB];
  for (int j = threadIdx.x; j < nb; j += kThreads) sb[j] = b[j];
  __syncthreads();
  const int lane = threadIdx.x & 31;
  const long long stride = (long long)gridDim.x * kThreads;
  // the loop bound is rounded to a multiple of the stride so every lane of a warp runs every
  // iteration and the full-mask __match_any_sync is legal; out-of-range lanes carry bucket -1
  const long long start = (long long)blockIdx.x * kThreads + threadIdx.x;
  const long long first_of_warp = start - lane;
  for (long long base = first_of_warp; base < n; base += stride) {
    const long long i = base + lane;
    int pos = -1;
    if (i < n) {
      const float v = __ldcs(x + i);
      // upper_bound by binary lifting over [0, nb): pow2 is the largest power of two <= nb
      pos = 0;
      for (int step = pow2; step > 0; step >>= 1)
        if (pos + step <= nb && sb[pos + step - 1] <= v) pos += step;
      __stcs(idx + i, pos);
    }
    const unsigned peers = __match_any_sync(0xffffffffu, pos);
    const int leader = __ffs(peers) - 1;
    if (pos >= 0 && lane == leader) atomicAdd(counts + pos, __popc(peers));
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

extern "C" void bucketize_hist_f32(int n, int nb, const float* x, const float* b, int* idx, int* counts,
                                   cudaStream_t stream) {
  zero_counts<<<(nb + 1 + 255) / 256, 256, 0, stream>>>(nb, counts);
  if (n <= 0) return;
  int pow2 = 1;
  while (pow2 * 2 <= nb) pow2 *= 2;
  long long blocks = ((long long)n + kThreads - 1) / kThreads;
  const long long cap = 8LL * sm_count();
  if (blocks > cap) blocks = cap;
  bucketize_warp_agg<<<(unsigned)blocks, kThreads, 0, stream>>>(n, nb, pow2, x, b, idx, counts);
}

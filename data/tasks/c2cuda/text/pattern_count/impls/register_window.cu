// strategy: register_window — each thread owns 64 consecutive positions, streams its bytes once with 16-byte vector loads into a sliding 64-bit register window compared against the packed first min(m,8) pattern bytes (longer patterns verified from global on a hit), warp-shuffle reduction, one atomic per warp
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kChunk = 64;  // positions per thread

__global__ void __launch_bounds__(kThreads)
pattern_window_kernel(long long n, int m, const unsigned char* __restrict__ text,
                      const unsigned char* __restrict__ pat, unsigned long long* __restrict__ count,
                      int vec_ok) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long npos = n - m + 1;
  const long long s = t * kChunk;
  unsigned long long local = 0;
  if (s < npos) {
    const int k = m < 8 ? m : 8;
    const uint64_t mask = (k == 8) ? ~0ull : ((1ull << (8 * k)) - 1ull);
    uint64_t pp = 0;
    for (int j = 0; j < k; ++j) pp = (pp << 8) | (uint64_t)__ldg(pat + j);
    const long long pend = (s + kChunk < npos) ? s + kChunk : npos;  // positions [s, pend)
    const long long qend = pend + k - 1;                              // bytes [s, qend), qend <= n
    uint64_t w = 0;
    auto step = [&](uint32_t c, long long q) {
      w = ((w << 8) | (uint64_t)c) & mask;
      const long long p = q - (k - 1);
      if (p >= s && p < pend && w == pp) {
        int j = k;
        while (j < m && __ldg(text + p + j) == __ldg(pat + j)) ++j;
        if (j == m) ++local;
      }
    };
    if (vec_ok && s + 80 <= n) {
      // s is a multiple of 64 and text is 16-byte aligned: bytes [s, s+80) cover [s, qend)
      const uint4* v = reinterpret_cast<const uint4*>(text + s);
#pragma unroll
      for (int u = 0; u < 5; ++u) {
        const uint4 q4 = __ldg(v + u);
        const uint32_t words[4] = {q4.x, q4.y, q4.z, q4.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int b = 0; b < 4; ++b) step((words[i] >> (8 * b)) & 0xffu, s + 16 * u + 4 * i + b);
      }
    } else {
      for (long long q = s; q < qend; ++q) step(__ldg(text + q), q);
    }
  }
  for (int off = 16; off > 0; off >>= 1) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0 && local) atomicAdd(count, local);
}

}  // namespace

extern "C" void pattern_count(long long n, int m, const unsigned char* text, const unsigned char* pat,
                              unsigned long long* count, cudaStream_t stream) {
  cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream);
  if (m < 1 || (long long)m > n) return;
  const long long npos = n - m + 1;
  const long long nthreads = (npos + kChunk - 1) / kChunk;
  const long long blocks = (nthreads + kThreads - 1) / kThreads;
  const int vec_ok = (((uintptr_t)text) & 15) == 0;
  pattern_window_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, m, text, pat, count, vec_ok);
}

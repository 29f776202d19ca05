// strategy: shared_privatized — a block-private 4^k-bin histogram in shared memory (k <= 7; larger k falls back to global atomics); each thread rolls the k-mer code over 32 consecutive positions fed by 16-byte vector loads, and each block flushes its non-zero bins with one global atomic each
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kChunk = 32;          // positions per thread and step
constexpr int kMaxSharedBins = 16384;

__global__ void __launch_bounds__(kThreads)
kmer_rolling_kernel(long long n, int k, const unsigned char* __restrict__ seq, unsigned int* __restrict__ counts,
                    int use_shared, int vec_ok) {
  extern __shared__ unsigned int sh_hist[];
  const unsigned int bins = 1u << (2 * k);
  const unsigned int mask = bins - 1u;
  unsigned int* hist = use_shared ? sh_hist : counts;
  if (use_shared) {
    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) sh_hist[b] = 0u;
    __syncthreads();
  }
  const long long npos = n - k + 1;
  const long long nchunks = (npos + kChunk - 1) / kChunk;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < nchunks; c += stride) {
    const long long s = c * kChunk;
    const long long pend = (s + kChunk < npos) ? s + kChunk : npos;
    const long long qend = pend + k - 1;  // bytes [s, qend), qend <= n
    unsigned int code = 0;
    if (vec_ok && s + 48 <= n) {  // 48 >= kChunk + 12 - 1 bytes, s a multiple of 32 (16-byte aligned)
      const uint4* v = reinterpret_cast<const uint4*>(seq + s);
#pragma unroll
      for (int u = 0; u < 3; ++u) {
        const uint4 q4 = __ldg(v + u);
        const uint32_t w[4] = {q4.x, q4.y, q4.z, q4.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int b = 0; b < 4; ++b) {
            const long long q = s + 16 * u + 4 * i + b;
            code = ((code << 2) | ((w[i] >> (8 * b)) & 3u)) & mask;
            const long long p = q - (k - 1);
            if (p >= s && p < pend) atomicAdd(&hist[code], 1u);
          }
      }
    } else {
      for (long long q = s; q < qend; ++q) {
        code = ((code << 2) | (__ldg(seq + q) & 3u)) & mask;
        const long long p = q - (k - 1);
        if (p >= s) atomicAdd(&hist[code], 1u);
      }
    }
  }
  if (use_shared) {
    __syncthreads();
    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) {
      const unsigned int v = sh_hist[b];
      if (v) atomicAdd(&counts[b], v);
    }
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

extern "C" void kmer_count(long long n, int k, const unsigned char* seq, unsigned int* counts, cudaStream_t stream) {
  const size_t bins = (size_t)1 << (2 * k);
  cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int), stream);
  if (n < k) return;
  const long long npos = n - k + 1;
  const long long nchunks = (npos + kChunk - 1) / kChunk;
  const int use_shared = bins <= (size_t)kMaxSharedBins;
  const size_t smem = use_shared ? bins * sizeof(unsigned int) : 0;
  if (smem > 48 * 1024)
    cudaFuncSetAttribute(kmer_rolling_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  long long blocks = (nchunks + kThreads - 1) / kThreads;
  const long long max_blocks = (use_shared ? 3LL : 16LL) * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  const int vec_ok = (((uintptr_t)seq) & 15) == 0;
  kmer_rolling_kernel<<<(unsigned int)blocks, kThreads, smem, stream>>>(n, k, seq, counts, use_shared, vec_ok);
}

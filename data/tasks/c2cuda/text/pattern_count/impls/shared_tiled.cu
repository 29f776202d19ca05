// strategy: shared_tiled — grid-stride over 4096-position tiles; each tile plus its (m-1)-byte halo is staged in shared memory with 4-byte loads, positions are matched from shared memory, warp-shuffle + block reduction, one global atomic per block
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kTile = 4096;  // match positions per tile

__global__ void __launch_bounds__(kThreads)
pattern_tiled_kernel(long long n, int m, const unsigned char* __restrict__ text,
                     const unsigned char* __restrict__ pat, unsigned long long* __restrict__ count,
                     long long ntiles, int stile, int word_ok) {
  extern __shared__ __align__(16) unsigned char sh[];
  unsigned char* st = sh;          // tile bytes, stile bytes (multiple of 4)
  unsigned char* sp = sh + stile;  // pattern, m bytes
  for (int j = threadIdx.x; j < m; j += blockDim.x) sp[j] = pat[j];

  const long long npos = n - m + 1;
  const int span = kTile + m - 1;
  const int nwords = (span + 3) / 4;
  unsigned long long local = 0;
  for (long long tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
    const long long base = tile * (long long)kTile;
    __syncthreads();  // previous tile fully consumed (first pass: pattern stored)
    for (int w = threadIdx.x; w < nwords; w += blockDim.x) {
      const long long g = base + 4LL * w;
      if (word_ok && g + 4 <= n) {
        uint32_t v = __ldg(reinterpret_cast<const uint32_t*>(text + g));
        *reinterpret_cast<uint32_t*>(st + 4 * w) = v;
      } else {
#pragma unroll
        for (int b = 0; b < 4; ++b) st[4 * w + b] = (g + b < n) ? text[g + b] : (unsigned char)0;
      }
    }
    __syncthreads();
    for (int p = threadIdx.x; p < kTile; p += blockDim.x) {
      if (base + p >= npos) break;
      int j = 0;
      while (j < m && st[p + j] == sp[j]) ++j;
      local += (j == m) ? 1ull : 0ull;
    }
  }

  for (int off = 16; off > 0; off >>= 1) local += __shfl_down_sync(0xffffffffu, local, off);
  __shared__ unsigned long long warp_sums[kThreads / 32];
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = local;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += warp_sums[w];
    if (s) atomicAdd(count, s);
  }
}

// Fallback for patterns too long to stage in shared memory: one thread per position from global memory.
__global__ void pattern_global_kernel(long long n, int m, const unsigned char* __restrict__ text,
                                      const unsigned char* __restrict__ pat, unsigned long long* count) {
  const long long npos = n - m + 1;
  unsigned long long local = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < npos;
       i += (long long)gridDim.x * blockDim.x) {
    int j = 0;
    while (j < m && text[i + j] == pat[j]) ++j;
    local += (j == m) ? 1ull : 0ull;
  }
  if (local) atomicAdd(count, local);
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

extern "C" void pattern_count(long long n, int m, const unsigned char* text, const unsigned char* pat,
                              unsigned long long* count, cudaStream_t stream) {
  cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream);
  if (m < 1 || (long long)m > n) return;
  const long long npos = n - m + 1;
  if (m > 16384) {
    pattern_global_kernel<<<4 * sm_count(), kThreads, 0, stream>>>(n, m, text, pat, count);
    return;
  }
  const long long ntiles = (npos + kTile - 1) / kTile;
  const int stile = ((kTile + m - 1 + 3) / 4) * 4;
  const int smem = stile + m;
  const int word_ok = (((uintptr_t)text) & 3) == 0;
  if (smem > 48 * 1024)
    cudaFuncSetAttribute(pattern_tiled_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  long long blocks = ntiles;
  const long long max_blocks = 8LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  pattern_tiled_kernel<<<(unsigned int)blocks, kThreads, smem, stream>>>(n, m, text, pat, count, ntiles, stile,
                                                                          word_ok);
}

// strategy: packed_two_pass — no global atomics and a 4x smaller footprint: each CTA keeps its private registers as bytes packed four to a shared word (byte-wise max through a filtered atomicCAS loop), dumps its 2^p bytes to a scratch row, and a second kernel takes the per-register max down the CTA rows with coalesced byte loads and writes the int registers
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kKeysPerThread = 16;

__device__ __forceinline__ unsigned long long fmix64_dev(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  return k ^ (k >> 33);
}

__device__ __forceinline__ void byte_max(unsigned* words, unsigned reg, unsigned rank) {
  unsigned* wp = words + (reg >> 2);
  const unsigned sh = (reg & 3u) * 8u;
  unsigned old = *(volatile unsigned*)wp;
  while (((old >> sh) & 0xFFu) < rank) {
    const unsigned want = (old & ~(0xFFu << sh)) | (rank << sh);
    const unsigned seen = atomicCAS(wp, old, want);
    if (seen == old) break;
    old = seen;
  }
}

template <bool kShared>
__global__ void __launch_bounds__(kThreads)
hll_pack_kernel(int n, int p, const uint32_t* __restrict__ keys, uint8_t* __restrict__ part) {
  extern __shared__ unsigned packed_smem[];
  const int m = 1 << p;
  const int nwords = (m + 3) >> 2;
  // kShared: a private file per CTA, copied to row blockIdx.x at the end; otherwise a single
  // zero-initialised global file (part itself) shared by the whole grid
  unsigned* packed = kShared ? packed_smem : reinterpret_cast<unsigned*>(part);
  if (kShared) {
    for (int j = threadIdx.x; j < nwords; j += blockDim.x) packed[j] = 0u;
    __syncthreads();
  }
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const unsigned long long h = fmix64_dev((unsigned long long)__ldg(keys + i) + 0x9E3779B97F4A7C15ull);
    const unsigned long long w = h << p;
    const unsigned rank = w ? (unsigned)__clzll(w) + 1u : (unsigned)(65 - p);
    byte_max(packed, (unsigned)(h >> (64 - p)), rank);
  }
  if (kShared) {
    __syncthreads();
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(packed);
    uint8_t* row = part + (long long)blockIdx.x * m;
    for (int j = threadIdx.x; j < m; j += blockDim.x) row[j] = bytes[j];
  }
}

__global__ void __launch_bounds__(kThreads)
hll_column_max(int rows, int m, const uint8_t* __restrict__ part, int* __restrict__ regs) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  int best = 0;
  for (int b = 0; b < rows; ++b) best = max(best, (int)__ldg(part + (long long)b * m + j));
  regs[j] = best;
}

}  // namespace

extern "C" void hll_registers(int n, int p, const uint32_t* keys, int* regs, cudaStream_t stream) {
  const int m = 1 << p;
  if (n <= 0) {
    cudaMemsetAsync(regs, 0, sizeof(int) * (size_t)m, stream);
    return;
  }
  int dev = 0, sms = 1, smem_max = 48 * 1024;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  const size_t sbytes = sizeof(unsigned) * (size_t)((m + 3) / 4);
  long long rows = ((long long)n + (long long)kThreads * kKeysPerThread - 1) / ((long long)kThreads * kKeysPerThread);
  if (rows > 4LL * sms) rows = 4LL * sms;
  uint8_t* part = nullptr;
  if (sbytes <= (size_t)smem_max) {
    cudaMallocAsync(&part, (size_t)rows * (size_t)m, stream);
    cudaFuncSetAttribute(hll_pack_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sbytes);
    hll_pack_kernel<true><<<(unsigned)rows, kThreads, sbytes, stream>>>(n, p, keys, part);
  } else {
    // register file too large for shared memory: one packed file in global memory for the whole grid
    cudaMallocAsync(&part, sbytes, stream);
    cudaMemsetAsync(part, 0, sbytes, stream);
    hll_pack_kernel<false><<<(unsigned)rows, kThreads, 0, stream>>>(n, p, keys, part);
    rows = 1;
  }
  hll_column_max<<<(m + kThreads - 1) / kThreads, kThreads, 0, stream>>>((int)rows, m, part, regs);
  cudaFreeAsync(part, stream);
}

// strategy: pointer_jumping — Wyllie pointer jumping / list ranking: every vertex keeps (ancestor, hops) packed in one 64-bit word and replaces it by its ancestor's pair each round (O(log depth) rounds, each perfectly parallel); updates are in place, which is safe because 64-bit words are read and written atomically and any ancestor pair read is consistent; a device-side change counter lets the remaining launches of the fixed log2(n)+1 round budget exit immediately
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;
typedef unsigned long long u64;

__device__ __forceinline__ u64 pack(int a, int d) { return ((u64)(unsigned int)a << 32) | (unsigned int)d; }
__device__ __forceinline__ int anc(u64 p) { return (int)(p >> 32); }
__device__ __forceinline__ int hops(u64 p) { return (int)(unsigned int)(p & 0xffffffffu); }

__global__ void __launch_bounds__(kThreads) frd_init(int n, const unsigned char* __restrict__ off, u64* __restrict__ P) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int o = __ldg(off + i);
    P[i] = (o == 0 || o > i) ? pack(i, 0) : pack(i - o, 1);
  }
}

// flags[r] != 0 iff round r changed something; round r runs only if round r-1 did
__global__ void __launch_bounds__(kThreads) frd_jump(int n, int r, u64* P, int* flags) {
  if (r > 0 && *(volatile int*)(flags + r - 1) == 0) return;
  const int stride = gridDim.x * blockDim.x;
  bool changed = false;
  volatile u64* vP = P;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const u64 me = vP[i];
    const int a = anc(me);
    const u64 up = vP[a];
    const int b = anc(up);
    if (b != a) {  // a is not a root: jump to a's ancestor
      vP[i] = pack(b, hops(me) + hops(up));
      changed = true;
    }
  }
  if (__syncthreads_or(changed) && threadIdx.x == 0) flags[r] = 1;
}

__global__ void __launch_bounds__(kThreads) frd_unpack(int n, const u64* __restrict__ P, int* __restrict__ root,
                                                      int* __restrict__ depth) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const u64 p = P[i];
    root[i] = anc(p);
    depth[i] = hops(p);
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

extern "C" void forest_root_depth(int n, const unsigned char* off, int* root, int* depth, cudaStream_t stream) {
  if (n <= 0) return;
  int rounds = 1;  // depth < n and each synchronous round at least doubles the hops covered
  while ((1LL << (rounds - 1)) < n) ++rounds;
  ++rounds;  // one extra round that observes no change
  u64* P = nullptr;
  int* flags = nullptr;
  cudaMallocAsync((void**)&P, (size_t)n * sizeof(u64), stream);
  cudaMallocAsync((void**)&flags, (size_t)rounds * sizeof(int), stream);
  cudaMemsetAsync(flags, 0, (size_t)rounds * sizeof(int), stream);
  long long blocks = ((long long)n + kThreads - 1) / kThreads;
  const long long cap = 16LL * sm_count();
  if (blocks > cap) blocks = cap;
  frd_init<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, off, P);
  for (int r = 0; r < rounds; ++r) frd_jump<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, r, P, flags);
  frd_unpack<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, P, root, depth);
  cudaFreeAsync(flags, stream);
  cudaFreeAsync(P, stream);
}

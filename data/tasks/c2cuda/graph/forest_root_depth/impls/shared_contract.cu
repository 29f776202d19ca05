// strategy: shared_contract — two-level list ranking: each block loads a tile of 4096 vertices and pointer-jumps entirely in shared memory until every vertex points at a root or at a vertex before the tile (parents always have smaller indices), which contracts all in-tile hops; a few global in-place pointer-jumping rounds over the packed (ancestor, hops) words then link the tiles, and a final pass unpacks
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 512;
constexpr int kTile = 4096;
constexpr int kPer = kTile / kThreads;
typedef unsigned long long u64;

__device__ __forceinline__ u64 pack(int a, int d) { return ((u64)(unsigned int)a << 32) | (unsigned int)d; }
__device__ __forceinline__ int anc(u64 p) { return (int)(p >> 32); }
__device__ __forceinline__ int hops(u64 p) { return (int)(unsigned int)(p & 0xffffffffu); }

__global__ void __launch_bounds__(kThreads)
frd_tile(int n, const unsigned char* __restrict__ off, u64* __restrict__ P) {
  __shared__ u64 s[kTile];
  const int t0 = blockIdx.x * kTile;
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const int li = j * kThreads + threadIdx.x;
    const int i = t0 + li;
    u64 v = pack(i, 0);
    if (i < n) {
      const int o = __ldg(off + i);
      if (o != 0 && o <= i) v = pack(i - o, 1);
    }
    s[li] = v;
  }
  __syncthreads();
  // synchronous rounds: read all, barrier, write all, barrier; stop when nothing in the tile moved
  for (;;) {
    u64 nv[kPer];
    bool changed = false;
#pragma unroll
    for (int j = 0; j < kPer; ++j) {
      const int li = j * kThreads + threadIdx.x;
      const u64 me = s[li];
      nv[j] = me;
      const int a = anc(me);
      if (a >= t0 && a != t0 + li) {  // ancestor inside the tile and not itself
        const u64 up = s[a - t0];
        if (anc(up) != a) {
          nv[j] = pack(anc(up), hops(me) + hops(up));
          changed = true;
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kPer; ++j) s[j * kThreads + threadIdx.x] = nv[j];
    if (!__syncthreads_or(changed)) break;
  }
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const int li = j * kThreads + threadIdx.x;
    if (t0 + li < n) P[t0 + li] = s[li];
  }
}

__global__ void __launch_bounds__(256) frd_jump(int n, int r, u64* P, int* flags) {
  if (r > 0 && *(volatile int*)(flags + r - 1) == 0) return;
  const int stride = gridDim.x * blockDim.x;
  bool changed = false;
  volatile u64* vP = P;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const u64 me = vP[i];
    const int a = anc(me);
    const u64 up = vP[a];
    const int b = anc(up);
    if (b != a) {
      vP[i] = pack(b, hops(me) + hops(up));
      changed = true;
    }
  }
  if (__syncthreads_or(changed) && threadIdx.x == 0) flags[r] = 1;
}

__global__ void __launch_bounds__(256) frd_unpack(int n, const u64* __restrict__ P, int* __restrict__ root,
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
  // after the tile pass every non-root pointer leaves its tile, so the chain of tiles has at most
  // cdiv(n, kTile) links; log2 of that plus one observing round bounds the global rounds
  const int tiles = (n + kTile - 1) / kTile;
  int rounds = 1;
  while ((1LL << (rounds - 1)) < tiles) ++rounds;
  ++rounds;
  u64* P = nullptr;
  int* flags = nullptr;
  cudaMallocAsync((void**)&P, (size_t)n * sizeof(u64), stream);
  cudaMallocAsync((void**)&flags, (size_t)rounds * sizeof(int), stream);
  cudaMemsetAsync(flags, 0, (size_t)rounds * sizeof(int), stream);
  frd_tile<<<tiles, kThreads, 0, stream>>>(n, off, P);
  long long blocks = ((long long)n + 255) / 256;
  const long long cap = 16LL * sm_count();
  if (blocks > cap) blocks = cap;
  for (int r = 0; r < rounds; ++r) frd_jump<<<(unsigned int)blocks, 256, 0, stream>>>(n, r, P, flags);
  frd_unpack<<<(unsigned int)blocks, 256, 0, stream>>>(n, P, root, depth);
  cudaFreeAsync(flags, stream);
  cudaFreeAsync(P, stream);
}

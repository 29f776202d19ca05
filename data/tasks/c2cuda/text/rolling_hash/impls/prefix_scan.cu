// strategy: prefix_scan — work-efficient, no per-window loop: a block stages a 4096-byte tile in shared memory, computes the tile-local prefix hashes P[k+1] = P[k]*B + v[k] with a parallel scan of affine maps (x -> a*x + b, composed by warp shuffles and a cross-warp pass), then every window hash is one difference h[i] = P[i+w] - P[i]*B^w; tiles overlap by w-1 bytes
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPer = 16;                 // bytes per thread
constexpr int kTile = kThreads * kPer;   // bytes per tile (4096)

struct Aff {  // x -> a*x + b (mod 2^64)
  unsigned long long a, b;
};

// first f, then g: x -> g.a*(f.a*x + f.b) + g.b
__device__ __forceinline__ Aff then(const Aff& f, const Aff& g) { return Aff{f.a * g.a, f.b * g.a + g.b}; }

__global__ void __launch_bounds__(kThreads)
prefix_hash_kernel(long long n, int w, unsigned long long B, unsigned long long Bw,
                   const unsigned char* __restrict__ text, unsigned long long* __restrict__ h, int outs_per_tile) {
  __shared__ __align__(16) unsigned char sbytes[kTile];
  __shared__ unsigned long long P[kTile + 1];
  __shared__ Aff warp_tot[kThreads / 32];

  const long long nout = n - w + 1;
  const long long t0 = (long long)blockIdx.x * outs_per_tile;  // first byte == first window of the tile
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  // stage the tile's bytes: coalesced 4-byte words where possible
  const bool word_ok = ((((uintptr_t)(text + t0)) & 3) == 0);  // t0 is a multiple of 4 (see the launcher)
  for (int q = tid; q < kTile / 4; q += kThreads) {
    const long long g = t0 + 4LL * q;
    if (word_ok && g + 4 <= n) {
      *reinterpret_cast<uint32_t*>(sbytes + 4 * q) = __ldg(reinterpret_cast<const uint32_t*>(text + g));
    } else {
      for (int b = 0; b < 4; ++b) sbytes[4 * q + b] = (g + b < n) ? __ldg(text + g + b) : (unsigned char)0;
    }
  }
  __syncthreads();

  // this thread's 16 bytes as one affine map
  unsigned long long B16 = 1ull;
  for (int j = 0; j < kPer; ++j) B16 *= B;
  unsigned long long loc = 0;
  for (int j = 0; j < kPer; ++j) loc = loc * B + (unsigned long long)sbytes[tid * kPer + j] + 1ull;
  Aff x{B16, loc};

  // inclusive warp scan in order (lower lanes first)
  for (int off = 1; off < 32; off <<= 1) {
    Aff y;
    y.a = __shfl_up_sync(0xffffffffu, x.a, off);
    y.b = __shfl_up_sync(0xffffffffu, x.b, off);
    if (lane >= off) x = then(y, x);
  }
  if (lane == 31) warp_tot[warp] = x;
  __syncthreads();
  Aff pre{1ull, 0ull};  // everything before this warp
  for (int k = 0; k < warp; ++k) pre = then(pre, warp_tot[k]);
  // exclusive prefix of this thread = pre then (inclusive of lane-1)
  Aff ex;
  ex.a = __shfl_up_sync(0xffffffffu, x.a, 1);
  ex.b = __shfl_up_sync(0xffffffffu, x.b, 1);
  if (lane == 0) ex = Aff{1ull, 0ull};
  ex = then(pre, ex);

  unsigned long long p = ex.b;  // P at byte tid*kPer (the map applied to 0)
  if (tid == 0) P[0] = 0ull;
  for (int j = 0; j < kPer; ++j) {
    p = p * B + (unsigned long long)sbytes[tid * kPer + j] + 1ull;
    P[tid * kPer + j + 1] = p;
  }
  __syncthreads();

  for (int i = tid; i < outs_per_tile; i += kThreads) {
    const long long g = t0 + i;
    if (g < nout) h[g] = P[i + w] - P[i] * Bw;
  }
}

}  // namespace

extern "C" void rolling_hash(long long n, int w, unsigned long long B, const unsigned char* text,
                             unsigned long long* h, cudaStream_t stream) {
  if (w < 1 || w > n || w > 2048) return;
  unsigned long long Bw = 1ull;
  for (int j = 0; j < w; ++j) Bw *= B;
  const long long nout = n - w + 1;
  // windows fully inside a 4096-byte tile, rounded down to a multiple of 4 so that every tile starts
  // on a 4-byte boundary of text (w <= 2048 leaves at least 2048)
  const int outs_per_tile = (kTile - w + 1) & ~3;
  const long long blocks = (nout + outs_per_tile - 1) / outs_per_tile;
  prefix_hash_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, w, B, Bw, text, h, outs_per_tile);
}

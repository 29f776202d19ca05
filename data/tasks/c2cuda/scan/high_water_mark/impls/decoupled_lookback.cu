// strategy: decoupled_lookback — single pass over the (sum, max-prefix) monoid: tiles claimed in order by an atomic counter publish aggregate then inclusive prefix (values, fence, flag); warp 0 looks back over 32 predecessors per round and folds them oldest-first with shuffles
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kItems = 12;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;
static constexpr long long kNeg = -(1LL << 62);

struct SM {
  long long s, m;
};

__device__ __forceinline__ SM combine(SM a, SM b) { return SM{a.s + b.s, max(a.m, a.s + b.m)}; }

__device__ __forceinline__ SM warp_inclusive(SM p, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    long long ts = __shfl_up_sync(0xffffffffu, p.s, off);
    long long tm = __shfl_up_sync(0xffffffffu, p.m, off);
    if (lane >= off) p = combine(SM{ts, tm}, p);
  }
  return p;
}

struct Status {
  int* flag;        // 0 = nothing yet, 1 = aggregate ready, 2 = inclusive prefix ready
  long long* agg;   // 2 per tile: s, m
  long long* incl;  // 2 per tile: s, m
};

__global__ void __launch_bounds__(kThreads) lookback_scan(int n, const int* __restrict__ x, long long* __restrict__ out,
                                                          Status st, int* tile_counter) {
  __shared__ int tile_s[kTile + kTile / 32];
  __shared__ long long res[kTile + kTile / 32];
  __shared__ SM warp_tot[kWarps];
  __shared__ int s_tile;
  __shared__ SM s_prefix;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1);
  __syncthreads();
  const int tile = s_tile;
  const long long base = (long long)tile * kTile;
  const int valid = (int)min((long long)kTile, (long long)n - base);
#define PAD(i) ((i) + ((i) >> 5))
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    tile_s[PAD(j)] = (j < valid) ? x[base + j] : 0;
  }
  __syncthreads();
  int d[kItems];
  SM a{0, kNeg};
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    d[k] = tile_s[PAD(threadIdx.x * kItems + k)];
    if (threadIdx.x * kItems + k < valid) a = combine(a, SM{d[k], d[k]});
  }
  SM inc = warp_inclusive(a, lane);
  long long ps = __shfl_up_sync(0xffffffffu, inc.s, 1);
  long long pm = __shfl_up_sync(0xffffffffu, inc.m, 1);
  SM wex = (lane == 0) ? SM{0, kNeg} : SM{ps, pm};
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  SM wacc{0, kNeg}, total{0, kNeg};
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    SM t = warp_tot[w];
    if (w < warp) wacc = combine(wacc, t);
    total = combine(total, t);
  }
  const SM thread_ex = combine(wacc, wex);

  if (warp == 0) {
    if (tile == 0) {
      if (lane == 0) {
        st.incl[0] = total.s;
        st.incl[1] = total.m;
        __threadfence();
        atomicExch(&st.flag[0], 2);
        s_prefix = SM{0, kNeg};
      }
    } else {
      if (lane == 0) {
        st.agg[2 * tile] = total.s;
        st.agg[2 * tile + 1] = total.m;
        __threadfence();
        atomicExch(&st.flag[tile], 1);
      }
      SM suffix{0, kNeg};  // fold of the tiles already looked at (nearer ones)
      int t0 = tile - 1;
      while (true) {
        const int t = t0 - lane;
        int f = 2;
        SM v{0, kNeg};
        if (t >= 0) {
          do {
            f = *((volatile int*)&st.flag[t]);
          } while (f == 0);
          __threadfence();
          const volatile long long* src = (f == 2) ? st.incl : st.agg;
          v.s = src[2 * t];
          v.m = src[2 * t + 1];
        }
        const unsigned pm2 = __ballot_sync(0xffffffffu, f == 2);
        const int last = pm2 ? (__ffs(pm2) - 1) : 31;  // oldest lane needed in this window
        SM w{0, kNeg};
        for (int L = last; L >= 0; --L) {  // oldest first
          long long vs = __shfl_sync(0xffffffffu, v.s, L);
          long long vm = __shfl_sync(0xffffffffu, v.m, L);
          w = combine(w, SM{vs, vm});
        }
        suffix = combine(w, suffix);
        if (pm2) break;
        t0 -= 32;
      }
      if (lane == 0) {
        SM incl = combine(suffix, total);
        st.incl[2 * tile] = incl.s;
        st.incl[2 * tile + 1] = incl.m;
        __threadfence();
        atomicExch(&st.flag[tile], 2);
        s_prefix = suffix;
      }
    }
  }
  __syncthreads();
  SM run = combine(s_prefix, thread_ex);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run = combine(run, SM{d[k], d[k]});
    res[PAD(threadIdx.x * kItems + k)] = run.m;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    if (j < valid) out[base + j] = res[PAD(j)];
  }
#undef PAD
}

extern "C" void high_water_mark(int n, const int* delta, long long* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  // layout: agg[2*tiles], incl[2*tiles] (long long), flag[tiles], counter (int)
  const size_t ll_bytes = sizeof(long long) * 4 * (size_t)tiles;
  const size_t bytes = ll_bytes + sizeof(int) * ((size_t)tiles + 1);
  char* scratch = nullptr;
  cudaMallocAsync((void**)&scratch, bytes, stream);
  Status st;
  st.agg = (long long*)scratch;
  st.incl = st.agg + 2 * (size_t)tiles;
  st.flag = (int*)(scratch + ll_bytes);
  int* counter = st.flag + tiles;
  cudaMemsetAsync(st.flag, 0, sizeof(int) * ((size_t)tiles + 1), stream);
  lookback_scan<<<tiles, kThreads, 0, stream>>>(n, delta, out, st, counter);
  cudaFreeAsync(scratch, stream);
}

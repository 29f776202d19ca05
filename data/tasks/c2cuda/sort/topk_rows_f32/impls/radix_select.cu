// strategy: radix_select — find each row's exact k-th largest key with four MSD passes of 8-bit digit histograms (shared-memory histograms with __match_any_sync aggregation, merged by global atomics, a tiny per-row digit pick between passes), then one gather pass of the few elements above the threshold, a fill with the threshold value and a rank sort of the k results
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kMaxK = 64;

__device__ __forceinline__ unsigned f2ord(float f) {
  unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float ord2f(unsigned k) {
  return __uint_as_float((k & 0x80000000u) ? (k ^ 0x80000000u) : ~k);
}

struct Sel {
  unsigned prefix;  // high digits of the k-th largest key found so far
  int need;         // how many keys equal to the final threshold still have to be taken
  int pos;          // gather cursor
  int pad;
  unsigned hist[256];
};

__global__ void sel_init(int batch, int k, Sel* s) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    s[b].prefix = 0u;
    s[b].need = k;
    s[b].pos = 0;
    s[b].pad = 0;
  }
  s[b].hist[threadIdx.x] = 0u;
}

__global__ void __launch_bounds__(kThreads) sel_hist(int n, const float* __restrict__ x, Sel* s, int shift) {
  __shared__ unsigned h[256];
  const int b = blockIdx.y;
  const int lane = threadIdx.x & 31;
  h[threadIdx.x] = 0u;
  const unsigned hi_mask = (shift == 24) ? 0u : (0xffffffffu << (shift + 8));
  const unsigned prefix = s[b].prefix & hi_mask;
  __syncthreads();
  const float* row = x + (long long)b * n;
  const long long stride = (long long)gridDim.x * kThreads;
  const long long start = (long long)blockIdx.x * kThreads + threadIdx.x;
  // loop bound is uniform across the warp so __match_any_sync sees all 32 lanes
  const long long start_w = start - lane;
  for (long long iw = start_w; iw < n; iw += stride) {
    const long long i = iw + lane;
    unsigned d = 256u;
    if (i < n) {
      const unsigned key = f2ord(row[i]);
      if ((key & hi_mask) == prefix) d = (key >> shift) & 255u;
    }
    const unsigned peers = __match_any_sync(0xffffffffu, d);
    if (d < 256u && lane == __ffs(peers) - 1) atomicAdd(&h[d], (unsigned)__popc(peers));
  }
  __syncthreads();
  if (h[threadIdx.x]) atomicAdd(&s[b].hist[threadIdx.x], h[threadIdx.x]);
}

// One block per row: pick the digit holding the need-th largest remaining key, clear the histogram.
__global__ void sel_pick(Sel* s, int shift) {
  __shared__ unsigned h[256];
  const int b = blockIdx.x;
  h[threadIdx.x] = s[b].hist[threadIdx.x];
  s[b].hist[threadIdx.x] = 0u;
  __syncthreads();
  if (threadIdx.x == 0) {
    int need = s[b].need;
    int d = 255;
    for (; d > 0; --d) {
      if ((int)h[d] >= need) break;
      need -= (int)h[d];
    }
    s[b].need = need;
    s[b].prefix |= (unsigned)d << shift;
  }
}

__global__ void __launch_bounds__(kThreads) sel_gather(int n, int k, const float* __restrict__ x, Sel* s,
                                                       float* __restrict__ out) {
  const int b = blockIdx.y;
  const unsigned thr = s[b].prefix;
  const float* row = x + (long long)b * n;
  const long long stride = (long long)gridDim.x * kThreads;
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < n; i += stride) {
    const float v = row[i];
    if (f2ord(v) > thr) {
      int p = atomicAdd(&s[b].pos, 1);
      out[(long long)b * k + p] = v;
    }
  }
}

// One block per row: fill with the threshold value, then rank-sort the k values descending.
__global__ void sel_finish(int k, const Sel* s, float* out) {
  __shared__ float v[kMaxK];
  const int b = blockIdx.x;
  const int t = threadIdx.x;
  const int above = k - s[b].need;
  float* o = out + (long long)b * k;
  if (t < k) v[t] = (t < above) ? o[t] : ord2f(s[b].prefix);
  __syncthreads();
  if (t < k) {
    const float me = v[t];
    int r = 0;
    for (int j = 0; j < k; ++j) r += (v[j] > me || (v[j] == me && j < t)) ? 1 : 0;
    o[r] = me;
  }
}

extern "C" void topk_rows_f32(int batch, int n, int k, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0 || n <= 0 || k <= 0) return;
  Sel* s = nullptr;
  cudaMallocAsync((void**)&s, sizeof(Sel) * (size_t)batch, stream);
  sel_init<<<batch, 256, 0, stream>>>(batch, k, s);
  long long want = ((long long)n + kThreads * 32 - 1) / (kThreads * 32);
  dim3 grid((unsigned)(want < 256 ? want : 256), (unsigned)batch);
  for (int shift = 24; shift >= 0; shift -= 8) {
    sel_hist<<<grid, kThreads, 0, stream>>>(n, x, s, shift);
    sel_pick<<<batch, 256, 0, stream>>>(s, shift);
  }
  sel_gather<<<grid, kThreads, 0, stream>>>(n, k, x, s, out);
  sel_finish<<<batch, kMaxK, 0, stream>>>(k, s, out);
  cudaFreeAsync(s, stream);
}

// strategy: merge_sort — stable merge sort of (key, value) pairs: each block sorts a 2048-pair tile in shared memory (8 pairs per thread by a stable odd-even network, then stable merge-path merges of doubling runs), then global merge passes (partition kernel for merge-path splits, per-tile merges staged through shared memory; ties take the left run first)
#include <cuda_runtime.h>
#include <climits>

typedef int Key;  // values are int too and travel with the keys
#define KV 1
static constexpr Key kSentinel = INT_MAX;
// ---- generic stable merge sort: block sort of 2048-item tiles in shared memory, then global merge-path passes ----
// Needs: Key, KV (0/1), kSentinel (largest Key)
static constexpr int kThreads = 256;
static constexpr int kIpt = 8;
static constexpr int kTile = kThreads * kIpt;  // 2048

// number of A items among the first d items of the stable merge of A and B (ties: A first)
template <typename P>
__device__ __forceinline__ int corank(int d, P A, int na, P B, int nb) {
  int lo = max(0, d - nb), hi = min(d, na);
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (A[mid] <= B[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads) block_sort(int n, const Key* __restrict__ kin, const Key* __restrict__ vin,
                                                       Key* __restrict__ kout, Key* __restrict__ vout) {
  __shared__ Key sk[kTile];
#if KV
  __shared__ Key sv[kTile];
#endif
  const long long base = (long long)blockIdx.x * kTile;
  const int valid = (int)min((long long)kTile, (long long)n - base);
  for (int i = threadIdx.x; i < kTile; i += kThreads) {
    sk[i] = (i < valid) ? kin[base + i] : kSentinel;  // padding sits last and stays last (stable)
#if KV
    sv[i] = (i < valid) ? vin[base + i] : (Key)0;
#endif
  }
  __syncthreads();
  Key k[kIpt];
#if KV
  Key v[kIpt];
#endif
  const int t0 = threadIdx.x * kIpt;
#pragma unroll
  for (int j = 0; j < kIpt; ++j) {
    k[j] = sk[t0 + j];
#if KV
    v[j] = sv[t0 + j];
#endif
  }
  // odd-even transposition sort of 8 register items (swaps only strictly out-of-order neighbours: stable)
#pragma unroll
  for (int round = 0; round < kIpt; ++round) {
#pragma unroll
    for (int j = round & 1; j + 1 < kIpt; j += 2) {
      if (k[j + 1] < k[j]) {
        Key t = k[j]; k[j] = k[j + 1]; k[j + 1] = t;
#if KV
        Key u = v[j]; v[j] = v[j + 1]; v[j + 1] = u;
#endif
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kIpt; ++j) {
    sk[t0 + j] = k[j];
#if KV
    sv[t0 + j] = v[j];
#endif
  }
  __syncthreads();
  for (int w = kIpt; w < kTile; w <<= 1) {
    const int pair = t0 / (2 * w);
    const int d = t0 - pair * 2 * w;
    const Key* A = sk + pair * 2 * w;
    const Key* B = A + w;
    int i = corank(d, A, w, B, w);
    int jj = d - i;
#pragma unroll
    for (int q = 0; q < kIpt; ++q) {
      bool takeA = (jj >= w) || (i < w && A[i] <= B[jj]);
      if (takeA) {
        k[q] = A[i];
#if KV
        v[q] = sv[pair * 2 * w + i];
#endif
        ++i;
      } else {
        k[q] = B[jj];
#if KV
        v[q] = sv[pair * 2 * w + w + jj];
#endif
        ++jj;
      }
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kIpt; ++q) {
      sk[t0 + q] = k[q];
#if KV
      sv[t0 + q] = v[q];
#endif
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < valid; i += kThreads) {
    kout[base + i] = sk[i];
#if KV
    vout[base + i] = sv[i];
#endif
  }
}

// For every output tile: how many items of its pair's A run precede the tile start (relative to the run).
__global__ void merge_partition(int n, long long w, int ntiles, const Key* __restrict__ keys, int* __restrict__ a_start) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ntiles) return;
  const long long o0 = (long long)t * kTile;
  const long long ps = (o0 / (2 * w)) * (2 * w);
  const int na = (int)min(w, (long long)n - ps);
  const int nb = (int)max(0LL, min(w, (long long)n - ps - w));
  a_start[t] = corank((int)(o0 - ps), keys + ps, na, keys + ps + na, nb);
}

__global__ void __launch_bounds__(kThreads) merge_pass(int n, long long w, int ntiles, const Key* __restrict__ kin,
                                                       const Key* __restrict__ vin, Key* __restrict__ kout,
                                                       Key* __restrict__ vout, const int* __restrict__ a_start) {
  __shared__ Key sk[kTile];
  __shared__ Key so[kTile];
#if KV
  __shared__ Key sv[kTile];
  __shared__ Key svo[kTile];
#endif
  const int t = blockIdx.x;
  const long long o0 = (long long)t * kTile;
  const long long o1 = min(o0 + kTile, (long long)n);
  const long long ps = (o0 / (2 * w)) * (2 * w);
  const int na = (int)min(w, (long long)n - ps);
  const int nb = (int)max(0LL, min(w, (long long)n - ps - w));
  const int d0 = (int)(o0 - ps), d1 = (int)(o1 - ps);
  const int a0 = a_start[t];
  const int a1 = (d1 == na + nb) ? na : a_start[t + 1];  // tile ends at the end of its pair or mid-pair
  const int b0 = d0 - a0, b1 = d1 - a1;
  const int la = a1 - a0, lb = b1 - b0;
  const Key* A = kin + ps;
  const Key* B = kin + ps + na;
  for (int i = threadIdx.x; i < la + lb; i += kThreads) {
    if (i < la) {
      sk[i] = A[a0 + i];
#if KV
      sv[i] = vin[ps + a0 + i];
#endif
    } else {
      sk[i] = B[b0 + (i - la)];
#if KV
      sv[i] = vin[ps + na + b0 + (i - la)];
#endif
    }
  }
  __syncthreads();
  const int total = la + lb;
  const int dd = threadIdx.x * kIpt;
  if (dd < total) {
    int i = corank(dd, sk, la, sk + la, lb);
    int j = dd - i;
    const int cnt = min(kIpt, total - dd);
    for (int q = 0; q < cnt; ++q) {
      bool takeA = (j >= lb) || (i < la && sk[i] <= sk[la + j]);
      int src = takeA ? i++ : la + j++;
      so[dd + q] = sk[src];
#if KV
      svo[dd + q] = sv[src];
#endif
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < total; i += kThreads) {
    kout[o0 + i] = so[i];
#if KV
    vout[o0 + i] = svo[i];
#endif
  }
}

static void merge_sort(int n, const Key* kin, const Key* vin, Key* kout, Key* vout, cudaStream_t stream) {
  const int ntiles = (int)((n + (long long)kTile - 1) / kTile);
  int passes = 0;
  for (long long w = kTile; w < n; w <<= 1) ++passes;
  Key* ktmp = nullptr;
  Key* vtmp = nullptr;
  int* a_start = nullptr;
  if (passes > 0) {
    cudaMallocAsync((void**)&ktmp, sizeof(Key) * (size_t)n, stream);
    if (KV) cudaMallocAsync((void**)&vtmp, sizeof(Key) * (size_t)n, stream);
    cudaMallocAsync((void**)&a_start, sizeof(int) * (size_t)ntiles, stream);
  }
  // choose the block-sort destination so that the last merge pass lands in kout
  Key* kd = (passes % 2 == 0) ? kout : ktmp;
  Key* vd = (passes % 2 == 0) ? vout : vtmp;
  block_sort<<<ntiles, kThreads, 0, stream>>>(n, kin, vin, kd, vd);
  for (long long w = kTile; w < n; w <<= 1) {
    Key* ks = kd;
    Key* vs = vd;
    kd = (ks == kout) ? ktmp : kout;
    vd = (ks == kout) ? vtmp : vout;
    merge_partition<<<(ntiles + 255) / 256, 256, 0, stream>>>(n, w, ntiles, ks, a_start);
    merge_pass<<<ntiles, kThreads, 0, stream>>>(n, w, ntiles, ks, vs, kd, vd, a_start);
  }
  if (passes > 0) {
    cudaFreeAsync(ktmp, stream);
    if (KV) cudaFreeAsync(vtmp, stream);
    cudaFreeAsync(a_start, stream);
  }
}

extern "C" void sort_pairs_i32(int n, const int* keys_in, const int* vals_in, int* keys_out, int* vals_out,
                               cudaStream_t stream) {
  if (n <= 0) return;
  merge_sort(n, keys_in, vals_in, keys_out, vals_out, stream);
}

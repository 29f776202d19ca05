// strategy: naive (weak) — k rounds of "find the largest value below the previous one": each round re-reads every row twice (block max + one atomicMax per block, then a count of its copies) and a one-thread-per-row kernel appends the copies; 2k full passes over the input
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned f2ord(float f) {
  unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float ord2f(unsigned k) {
  return __uint_as_float((k & 0x80000000u) ? (k ^ 0x80000000u) : ~k);
}

struct RowState {
  unsigned long long prev;  // exclusive upper bound on keys still to take (2^32 = none taken yet)
  unsigned cur;             // max key below prev found this round (0 = none)
  int cnt;                  // copies of cur
  int filled;
};

__global__ void init_state(int batch, RowState* st) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < batch) st[b] = RowState{1ull << 32, 0u, 0, 0};
}

__global__ void round_max(int n, int k, const float* x, RowState* st) {
  __shared__ unsigned smax[256];
  const int b = blockIdx.y;
  const unsigned long long prev = st[b].prev;
  if (st[b].filled >= k) return;  // uniform per block
  const float* row = x + (long long)b * n;
  unsigned m = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned key = f2ord(row[i]);
    if (key < prev && key > m) m = key;
  }
  smax[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) smax[threadIdx.x] = max(smax[threadIdx.x], smax[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0 && smax[0] > 0) atomicMax(&st[b].cur, smax[0]);
}

__global__ void round_count(int n, int k, const float* x, RowState* st) {
  __shared__ int scnt[256];
  const int b = blockIdx.y;
  if (st[b].filled >= k) return;
  const unsigned cur = st[b].cur;
  const float* row = x + (long long)b * n;
  int c = 0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    c += (f2ord(row[i]) == cur) ? 1 : 0;
  scnt[threadIdx.x] = c;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) scnt[threadIdx.x] += scnt[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0 && scnt[0] > 0) atomicAdd(&st[b].cnt, scnt[0]);
}

__global__ void round_append(int batch, int k, RowState* st, float* out) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  RowState s = st[b];
  if (s.filled >= k || s.cur == 0) return;
  int take = min(s.cnt, k - s.filled);
  float v = ord2f(s.cur);
  for (int q = 0; q < take; ++q) out[(long long)b * k + s.filled + q] = v;
  s.filled += take;
  s.prev = s.cur;
  s.cur = 0;
  s.cnt = 0;
  st[b] = s;
}

extern "C" void topk_rows_f32(int batch, int n, int k, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0 || n <= 0 || k <= 0) return;
  RowState* st = nullptr;
  cudaMallocAsync((void**)&st, sizeof(RowState) * (size_t)batch, stream);
  init_state<<<(batch + 127) / 128, 128, 0, stream>>>(batch, st);
  const int threads = 256;
  long long want = ((long long)n + threads * 8 - 1) / (threads * 8);
  dim3 grid((unsigned)(want < 256 ? want : 256), (unsigned)batch);
  for (int r = 0; r < k; ++r) {
    round_max<<<grid, threads, 0, stream>>>(n, k, x, st);
    round_count<<<grid, threads, 0, stream>>>(n, k, x, st);
    round_append<<<(batch + 127) / 128, 128, 0, stream>>>(batch, k, st, out);
  }
  cudaFreeAsync(st, stream);
}

// strategy: chunked_scan — the recurrence is a product of 4x4 min-plus transfer matrices; three launches: (1) one thread per 64-position chunk builds its chunk's matrix, (2) one block composes groups of chunk matrices and chains the incoming 4-state of every chunk, (3) one thread per chunk replays its positions from that state
#include <cuda_runtime.h>

#define CH 64            // positions per chunk
#define P2_THREADS 256
#define INF (1LL << 60)

struct Mat { long long a[16]; };  // a[r*4+c]: state_out[r] = min_c a[r][c] + state_in[c]

__device__ __forceinline__ long long sat(long long x) { return x < INF ? x : INF; }

// M <- step(i) (x) M: new row 0 = min_k w_k + M[k][.], rows 1..3 shift down
__device__ __forceinline__ void step_mat(long long* m, int4 wv) {
  long long r0[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    long long v = sat(m[0 * 4 + c] + wv.x);
    v = min(v, sat(m[1 * 4 + c] + wv.y));
    v = min(v, sat(m[2 * 4 + c] + wv.z));
    v = min(v, sat(m[3 * 4 + c] + wv.w));
    r0[c] = v;
  }
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    m[3 * 4 + c] = m[2 * 4 + c];
    m[2 * 4 + c] = m[1 * 4 + c];
    m[1 * 4 + c] = m[0 * 4 + c];
    m[0 * 4 + c] = r0[c];
  }
}

__device__ __forceinline__ void apply_mat(const long long* m, long long* s) {  // s <- m (x) s
  long long o[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    long long v = INF;
#pragma unroll
    for (int c = 0; c < 4; ++c) v = min(v, sat(m[r * 4 + c] + s[c]));
    o[r] = v;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) s[r] = o[r];
}

__global__ void chunk_matrix_kernel(int n, int nchunks, const int* __restrict__ w, Mat* __restrict__ mats) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nchunks) return;
  long long m[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) m[k] = (k % 5 == 0) ? 0 : INF;  // min-plus identity
  const int lo = c * CH;
  const int hi = min(n, lo + CH);
  for (int i = lo; i < hi; ++i) step_mat(m, __ldg(reinterpret_cast<const int4*>(w) + i));
#pragma unroll
  for (int k = 0; k < 16; ++k) mats[c].a[k] = m[k];
}

__global__ void __launch_bounds__(P2_THREADS) chain_kernel(int nchunks, const Mat* __restrict__ mats,
                                                           long long* __restrict__ states) {
  __shared__ long long gin[P2_THREADS][4];
  __shared__ Mat gagg[P2_THREADS];
  const int t = threadIdx.x;
  const int G = (nchunks + P2_THREADS - 1) / P2_THREADS;
  const int lo = t * G;
  const int hi = min(nchunks, lo + G);
  long long m[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) m[k] = (k % 5 == 0) ? 0 : INF;
  for (int c = lo; c < hi; ++c) {  // m <- mats[c] (x) m
    long long o[16];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int cc = 0; cc < 4; ++cc) {
        long long v = INF;
#pragma unroll
        for (int k = 0; k < 4; ++k) v = min(v, sat(mats[c].a[r * 4 + k] + m[k * 4 + cc]));
        o[r * 4 + cc] = v;
      }
#pragma unroll
    for (int k = 0; k < 16; ++k) m[k] = o[k];
  }
#pragma unroll
  for (int k = 0; k < 16; ++k) gagg[t].a[k] = m[k];
  __syncthreads();
  if (t == 0) {  // chain the group aggregates serially: 256 matrix-vector products
    long long s[4] = {0, INF, INF, INF};  // (dp[-1], dp[-2], dp[-3], dp[-4])
    for (int g = 0; g < P2_THREADS; ++g) {
      for (int k = 0; k < 4; ++k) gin[g][k] = s[k];
      apply_mat(gagg[g].a, s);
    }
  }
  __syncthreads();
  long long s[4];
  for (int k = 0; k < 4; ++k) s[k] = gin[t][k];
  for (int c = lo; c < hi; ++c) {
    for (int k = 0; k < 4; ++k) states[(size_t)c * 4 + k] = s[k];
    apply_mat(mats[c].a, s);
  }
}

__global__ void replay_kernel(int n, int nchunks, const int* __restrict__ w, const long long* __restrict__ states,
                              long long* __restrict__ dp) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nchunks) return;
  long long s0 = states[(size_t)c * 4 + 0], s1 = states[(size_t)c * 4 + 1];
  long long s2 = states[(size_t)c * 4 + 2], s3 = states[(size_t)c * 4 + 3];
  const int lo = c * CH;
  const int hi = min(n, lo + CH);
  for (int i = lo; i < hi; ++i) {
    const int4 wv = __ldg(reinterpret_cast<const int4*>(w) + i);
    long long v = min(min(sat(s0 + wv.x), sat(s1 + wv.y)), min(sat(s2 + wv.z), sat(s3 + wv.w)));
    dp[i] = v;
    s3 = s2;
    s2 = s1;
    s1 = s0;
    s0 = v;
  }
}

extern "C" void minplus_jumps(int n, const int* w, long long* dp, cudaStream_t stream) {
  if (n <= 0) return;
  const int nchunks = (n + CH - 1) / CH;
  Mat* mats = nullptr;
  long long* states = nullptr;
  cudaMallocAsync((void**)&mats, sizeof(Mat) * (size_t)nchunks, stream);
  cudaMallocAsync((void**)&states, sizeof(long long) * 4 * (size_t)nchunks, stream);
  const int threads = 128;
  const int blocks = (nchunks + threads - 1) / threads;
  chunk_matrix_kernel<<<blocks, threads, 0, stream>>>(n, nchunks, w, mats);
  chain_kernel<<<1, P2_THREADS, 0, stream>>>(nchunks, mats, states);
  replay_kernel<<<blocks, threads, 0, stream>>>(n, nchunks, w, states, dp);
  cudaFreeAsync(states, stream);
  cudaFreeAsync(mats, stream);
}

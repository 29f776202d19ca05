// strategy: chunked — chunk-parallel form: 32-row chunks each build their local state increment [sum phi(k) v^T | sum phi(k)] in parallel, an exclusive scan over chunks turns them into chunk-start states, then every chunk produces its rows as phi(q) . start_state plus an intra-chunk causal (phi(q) phi(k)^T) V product, all staged in shared memory
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kMaxD = 64;
constexpr int kC = 32;          // rows per chunk
constexpr int kPad = kMaxD + 1; // padded row stride
constexpr int kThreads = 256;

__device__ __forceinline__ float lin_phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

// dS[h][ch][r][c], r < d, c <= d (column d is the normaliser increment)
__global__ void __launch_bounds__(kThreads)
lin_chunk_state(int seq, int d, int nch, const float* __restrict__ K, const float* __restrict__ V,
                float* __restrict__ dS) {
  __shared__ float pk[kC][kPad];
  __shared__ float vv[kC][kPad];
  const int ch = blockIdx.x, h = blockIdx.y;
  const int i0 = ch * kC;
  const size_t base = (size_t)h * seq * d;
  for (int idx = threadIdx.x; idx < kC * kPad; idx += kThreads) {
    const int s = idx / kPad, c = idx - s * kPad;
    const int i = i0 + s;
    float kv = 0.0f, v = 0.0f;
    if (i < seq) {
      if (c < d) {
        kv = lin_phi(__ldg(K + base + (size_t)i * d + c));
        v = __ldg(V + base + (size_t)i * d + c);
      } else if (c == d) {
        v = 1.0f;
      }
    }
    pk[s][c] = kv;
    vv[s][c] = v;
  }
  __syncthreads();
  const int E = d * (d + 1);
  float* dst = dS + ((size_t)h * nch + ch) * E;
  for (int e = threadIdx.x; e < E; e += kThreads) {
    const int r = e / (d + 1), c = e - r * (d + 1);
    float acc = 0.0f;
#pragma unroll 8
    for (int s = 0; s < kC; ++s) acc += pk[s][r] * vv[s][c];
    dst[e] = acc;
  }
}

// in place: dS[h][ch] <- sum of dS[h][0..ch-1] (exclusive scan over chunks, fixed order)
__global__ void lin_chunk_scan(int d, int nch, float* __restrict__ dS) {
  const int E = d * (d + 1);
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= E) return;
  float* p = dS + (size_t)blockIdx.y * nch * E + e;
  float run = 0.0f;
  for (int ch = 0; ch < nch; ++ch) {
    const float t = p[(size_t)ch * E];
    p[(size_t)ch * E] = run;
    run += t;
  }
}

__global__ void __launch_bounds__(kThreads)
lin_chunk_output(int seq, int d, int nch, const float* __restrict__ Q, const float* __restrict__ K,
                 const float* __restrict__ V, const float* __restrict__ dS, float* __restrict__ out) {
  __shared__ float Ss[kMaxD * kPad];  // start state, row r at r * kPad, columns 0..d
  __shared__ float pq[kC][kPad];
  __shared__ float pk[kC][kPad];
  __shared__ float vv[kC][kPad];
  __shared__ float A[kC][kC + 1];
  __shared__ float den[kC];
  const int ch = blockIdx.x, h = blockIdx.y;
  const int i0 = ch * kC;
  const size_t base = (size_t)h * seq * d;
  const int E = d * (d + 1);
  const float* src = dS + ((size_t)h * nch + ch) * E;
  for (int e = threadIdx.x; e < E; e += kThreads) {
    const int r = e / (d + 1), c = e - r * (d + 1);
    Ss[r * kPad + c] = src[e];
  }
  for (int idx = threadIdx.x; idx < kC * kPad; idx += kThreads) {
    const int s = idx / kPad, c = idx - s * kPad;
    const int i = i0 + s;
    float qv = 0.0f, kv = 0.0f, v = 0.0f;
    if (i < seq) {
      if (c < d) {
        const size_t off = base + (size_t)i * d + c;
        qv = lin_phi(__ldg(Q + off));
        kv = lin_phi(__ldg(K + off));
        v = __ldg(V + off);
      } else if (c == d) {
        v = 1.0f;
      }
    }
    pq[s][c] = qv;
    pk[s][c] = kv;
    vv[s][c] = v;
  }
  __syncthreads();
  // causal intra-chunk weights A[s][t] = phi(q_s).phi(k_t) for t <= s
  for (int idx = threadIdx.x; idx < kC * kC; idx += kThreads) {
    const int s = idx / kC, t = idx - s * kC;
    float a = 0.0f;
    if (t <= s)
      for (int r = 0; r < d; ++r) a += pq[s][r] * pk[t][r];
    A[s][t] = a;
  }
  __syncthreads();
  if (threadIdx.x < kC) {
    const int s = threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < d; ++r) acc += pq[s][r] * Ss[r * kPad + d];
    for (int t = 0; t <= s; ++t) acc += A[s][t];  // vv[t][d] == 1 for live rows, A is 0 for padding rows
    den[s] = acc;
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < kC * d; idx += kThreads) {
    const int s = idx / d, c = idx - s * d;
    const int i = i0 + s;
    if (i >= seq) continue;
    float acc = 0.0f;
    for (int r = 0; r < d; ++r) acc += pq[s][r] * Ss[r * kPad + c];
    for (int t = 0; t <= s; ++t) acc += A[s][t] * vv[t][c];
    out[base + (size_t)i * d + c] = acc / den[s];
  }
}

}  // namespace

extern "C" void linear_causal_attention_f32(int heads, int seq, int d, const float* Q, const float* K,
                                            const float* V, float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  const int nch = (seq + kC - 1) / kC;
  const int E = d * (d + 1);
  float* dS = nullptr;
  if (cudaMallocAsync(&dS, (size_t)heads * nch * E * sizeof(float), stream) != cudaSuccess) return;
  dim3 grid((unsigned int)nch, (unsigned int)heads);
  lin_chunk_state<<<grid, kThreads, 0, stream>>>(seq, d, nch, K, V, dS);
  dim3 sgrid((unsigned int)((E + 127) / 128), (unsigned int)heads);
  lin_chunk_scan<<<sgrid, 128, 0, stream>>>(d, nch, dS);
  lin_chunk_output<<<grid, kThreads, 0, stream>>>(seq, d, nch, Q, K, V, dS, out);
  cudaFreeAsync(dS, stream);
}

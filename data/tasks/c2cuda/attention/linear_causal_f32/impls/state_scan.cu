// strategy: state_scan — recurrent form, one block per head keeps the whole d x (d+1) state [S | z] in registers (thread = one state column x a quarter of the rows) and walks the sequence in 16-step slabs staged through shared memory, so a slab costs three barriers and the per-step output reduction over row groups happens once per slab
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kMaxD = 64;
constexpr int kCols = kMaxD + 1;   // state columns: d value columns, then the normaliser column (v = 1)
constexpr int kRowGroups = 4;
constexpr int kRowsPerThread = kMaxD / kRowGroups;
constexpr int kThreads = kRowGroups * kCols;  // 260
constexpr int kT = 16;                        // steps per slab

__device__ __forceinline__ float lin_phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

__global__ void __launch_bounds__(kThreads)
lin_scan_kernel(int seq, int d, const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                float* __restrict__ out) {
  __shared__ float pk[kT][kMaxD];
  __shared__ float pq[kT][kMaxD];
  __shared__ float vv[kT][kCols];
  __shared__ float part[kT][kRowGroups][kCols];
  const int tid = threadIdx.x;
  const int c = tid % kCols, rg = tid / kCols;
  const size_t base = (size_t)blockIdx.x * seq * d;
  float S[kRowsPerThread];
#pragma unroll
  for (int u = 0; u < kRowsPerThread; ++u) S[u] = 0.0f;

  for (int i0 = 0; i0 < seq; i0 += kT) {
    __syncthreads();  // previous slab's partials have been consumed
    for (int idx = tid; idx < kT * kMaxD; idx += kThreads) {
      const int s = idx / kMaxD, r = idx - s * kMaxD;
      const int i = i0 + s;
      const bool ok = i < seq && r < d;
      pk[s][r] = ok ? lin_phi(__ldg(K + base + (size_t)i * d + r)) : 0.0f;  // zero rows/cols add nothing
      pq[s][r] = ok ? lin_phi(__ldg(Q + base + (size_t)i * d + r)) : 0.0f;
    }
    for (int idx = tid; idx < kT * kCols; idx += kThreads) {
      const int s = idx / kCols, cc = idx - s * kCols;
      const int i = i0 + s;
      float v = 0.0f;
      if (i < seq) v = cc < d ? __ldg(V + base + (size_t)i * d + cc) : (cc == d ? 1.0f : 0.0f);
      vv[s][cc] = v;
    }
    __syncthreads();
    if (c <= d) {
      for (int s = 0; s < kT; ++s) {
        const float vc = vv[s][c];
        float acc = 0.0f;
#pragma unroll
        for (int u = 0; u < kRowsPerThread; ++u) {
          const int r = rg + kRowGroups * u;  // < kMaxD; pk/pq are zero for r >= d
          S[u] += pk[s][r] * vc;
          acc += pq[s][r] * S[u];
        }
        part[s][rg][c] = acc;
      }
    }
    __syncthreads();
    for (int idx = tid; idx < kT * d; idx += kThreads) {
      const int s = idx / d, cc = idx - s * d;
      const int i = i0 + s;
      if (i >= seq) continue;
      float num = 0.0f, den = 0.0f;
#pragma unroll
      for (int g = 0; g < kRowGroups; ++g) {
        num += part[s][g][cc];
        den += part[s][g][d];
      }
      out[base + (size_t)i * d + cc] = num / den;
    }
  }
}

}  // namespace

extern "C" void linear_causal_attention_f32(int heads, int seq, int d, const float* Q, const float* K,
                                            const float* V, float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  lin_scan_kernel<<<heads, kThreads, 0, stream>>>(seq, d, Q, K, V, out);
}

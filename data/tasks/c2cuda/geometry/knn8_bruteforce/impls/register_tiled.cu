// strategy: register_tiled — one query per thread, its coordinates staged once in shared memory as float4 columns; 32-reference tiles are loaded with flat coalesced reads, and each thread accumulates 32 direct-difference distances in registers (one float4 broadcast read feeds 8 FLOPs), then feeds them to a register top-8 compare-exchange list
#include <cuda_runtime.h>
#include <float.h>

namespace {

constexpr int kThreads = 128;  // queries per block
constexpr int kMaxD4 = 16;     // dim <= 64
constexpr int kRefs = 32;      // references per tile

__device__ __forceinline__ void push8(float (&b)[8], float d) {
  if (d < b[7]) {
    b[7] = d;
#pragma unroll
    for (int j = 7; j > 0; --j) {
      const float lo = fminf(b[j - 1], b[j]);
      const float hi = fmaxf(b[j - 1], b[j]);
      b[j - 1] = lo;
      b[j] = hi;
    }
  }
}

__global__ void __launch_bounds__(kThreads)
knn_regtile_kernel(int nq, int nr, int dim, const float* __restrict__ q, const float* __restrict__ r,
                   float* __restrict__ dist) {
  __shared__ float4 qs[kMaxD4][kThreads];  // [dim/4][query]
  __shared__ float4 rs[kRefs][kMaxD4];     // [ref][dim/4]
  const int tid = threadIdx.x;
  const int d4 = (dim + 3) >> 2;
  float* qsf = reinterpret_cast<float*>(qs);
  float* rsf = reinterpret_cast<float*>(rs);
  // zero padding lanes of the last float4 (coordinates >= dim contribute 0 - 0)
  for (int e = tid; e < kMaxD4 * kThreads * 4; e += kThreads) qsf[e] = 0.0f;
  for (int e = tid; e < kRefs * kMaxD4 * 4; e += kThreads) rsf[e] = 0.0f;
  __syncthreads();
  const long long q0 = (long long)blockIdx.x * kThreads;
  const int nqb = (int)min((long long)kThreads, nq - q0);
  const float* qsrc = q + q0 * dim;
  for (int f = tid; f < nqb * dim; f += kThreads) {  // consecutive threads read consecutive floats
    const int qi = f / dim, c = f - qi * dim;
    qsf[((c >> 2) * kThreads + qi) * 4 + (c & 3)] = __ldg(qsrc + f);
  }
  float b[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) b[k] = FLT_MAX;
  for (int t0 = 0; t0 < nr; t0 += kRefs) {
    const int cnt = min(kRefs, nr - t0);
    __syncthreads();  // previous tile consumed (and, first time, queries staged)
    const float* rsrc = r + (long long)t0 * dim;
    for (int f = tid; f < cnt * dim; f += kThreads) {
      const int j = f / dim, c = f - j * dim;
      rsf[(j * kMaxD4 + (c >> 2)) * 4 + (c & 3)] = __ldg(rsrc + f);
    }
    __syncthreads();
    float acc[kRefs];
#pragma unroll
    for (int j = 0; j < kRefs; ++j) acc[j] = 0.0f;
    for (int k4 = 0; k4 < d4; ++k4) {
      const float4 qv = qs[k4][tid];
#pragma unroll
      for (int j = 0; j < kRefs; ++j) {
        const float4 rv = rs[j][k4];  // same address across the warp: broadcast
        const float dx = qv.x - rv.x, dy = qv.y - rv.y, dz = qv.z - rv.z, dw = qv.w - rv.w;
        acc[j] = fmaf(dx, dx, acc[j]);
        acc[j] = fmaf(dy, dy, acc[j]);
        acc[j] = fmaf(dz, dz, acc[j]);
        acc[j] = fmaf(dw, dw, acc[j]);
      }
    }
#pragma unroll
    for (int j = 0; j < kRefs; ++j)
      if (j < cnt) push8(b, acc[j]);
  }
  if (tid < nqb) {
    float4* o = reinterpret_cast<float4*>(dist + 8 * (q0 + tid));
    o[0] = make_float4(b[0], b[1], b[2], b[3]);
    o[1] = make_float4(b[4], b[5], b[6], b[7]);
  }
}

}  // namespace

extern "C" void knn8_bruteforce(int nq, int nr, int dim, const float* q, const float* r, float* dist,
                                cudaStream_t stream) {
  if (nq <= 0) return;
  knn_regtile_kernel<<<(nq + kThreads - 1) / kThreads, kThreads, 0, stream>>>(nq, nr, dim, q, r, dist);
}

// strategy: two_pass_stats — two kernels instead of one online softmax: the first streams 32-key tiles of K through shared memory and keeps only each query's row maximum and exponential sum (scalars, warp-reduced), the second recomputes the same scores, turns them into final probabilities exp(s - max) / sum in a shared tile and multiplies by V streamed through the same tile; twice the QK^T work, no rescaling of the accumulators
#include <cuda_runtime.h>
#include <math.h>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kBQ = 32;          // queries per block
constexpr int kKC = 32;          // keys per tile: lane kj of a warp scores key kj
constexpr int kRows = kBQ / kWarps;  // queries per warp in the score loops
constexpr int kMaxAcc = kBQ * 128 / kThreads;  // outputs per thread (d <= 128)

// Loads the block's queries and, for each tile, the tile's keys (or values): dynamic shared memory
// Qs[kBQ][d] | T[kKC][d + 1].
__device__ void load_rows(float* dst, int stride, const float* src, int first, int rows, int limit, int d) {
  for (int e = threadIdx.x; e < rows * d; e += kThreads) {
    const int r = e / d, c = e % d;
    dst[r * stride + c] = (first + r < limit) ? src[(size_t)(first + r) * d + c] : 0.f;
  }
}

// The score of query i (row qi of Qs) and key j (row kj of T): the same expression, the same rounding,
// in both kernels, so exp(s - max) <= 1 holds exactly.
__device__ float score(const float* Qs, const float* T, int qi, int kj, int d, float scale, float slope, int i, int j) {
  float dot = 0.f;
  for (int c = 0; c < d; ++c) dot = fmaf(Qs[qi * d + c], T[kj * (d + 1) + c], dot);
  return __fmul_rn(dot, scale) - __fmul_rn(slope, (float)abs(i - j));
}

__global__ void __launch_bounds__(kThreads)
row_stats(int seq, int d, float scale, const float* __restrict__ Q, const float* __restrict__ K,
          const float* __restrict__ slopes, float* __restrict__ row_max, float* __restrict__ row_sum) {
  extern __shared__ float smem[];
  float* Qs = smem;
  float* T = Qs + kBQ * d;
  const size_t base = (size_t)blockIdx.y * seq * d;
  const int q0 = blockIdx.x * kBQ, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const float slope = slopes[blockIdx.y];
  load_rows(Qs, d, Q + base, q0, kBQ, seq, d);
  float m[kRows], l[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) m[r] = -INFINITY, l[r] = 0.f;
  for (int k0 = 0; k0 < seq; k0 += kKC) {
    __syncthreads();
    load_rows(T, d + 1, K + base, k0, kKC, seq, d);
    __syncthreads();
    const int j = k0 + lane;
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int qi = warp + r * kWarps;
      const float s = j < seq ? score(Qs, T, qi, lane, d, scale, slope, q0 + qi, j) : -INFINITY;
      float tm = s;
      for (int off = 16; off > 0; off >>= 1) tm = fmaxf(tm, __shfl_xor_sync(0xffffffffu, tm, off));
      const float mn = fmaxf(m[r], tm);  // finite: every tile has key k0 < seq
      float e = j < seq ? expf(s - mn) : 0.f;
      for (int off = 16; off > 0; off >>= 1) e += __shfl_xor_sync(0xffffffffu, e, off);
      l[r] = l[r] * expf(m[r] - mn) + e;
      m[r] = mn;
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int i = q0 + warp + r * kWarps;
    if (lane == 0 && i < seq) {
      row_max[(size_t)blockIdx.y * seq + i] = m[r];
      row_sum[(size_t)blockIdx.y * seq + i] = l[r];
    }
  }
}

// Dynamic shared memory: Qs[kBQ][d] | T[kKC][d + 1] | P[kBQ][kKC]
__global__ void __launch_bounds__(kThreads)
weighted_values(int seq, int d, float scale, const float* __restrict__ Q, const float* __restrict__ K,
                const float* __restrict__ V, const float* __restrict__ slopes, const float* __restrict__ row_max,
                const float* __restrict__ row_sum, float* __restrict__ out) {
  extern __shared__ float smem[];
  float* Qs = smem;
  float* T = Qs + kBQ * d;
  float* P = T + kKC * (d + 1);
  const size_t base = (size_t)blockIdx.y * seq * d;
  const int q0 = blockIdx.x * kBQ, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const float slope = slopes[blockIdx.y];
  load_rows(Qs, d, Q + base, q0, kBQ, seq, d);
  float mx[kRows], inv[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int i = q0 + warp + r * kWarps;
    mx[r] = i < seq ? row_max[(size_t)blockIdx.y * seq + i] : 0.f;
    inv[r] = i < seq ? 1.f / row_sum[(size_t)blockIdx.y * seq + i] : 0.f;
  }
  float acc[kMaxAcc];
#pragma unroll
  for (int a = 0; a < kMaxAcc; ++a) acc[a] = 0.f;
  const int outs = kBQ * d;
  for (int k0 = 0; k0 < seq; k0 += kKC) {
    __syncthreads();  // the previous tile's values and probabilities read
    load_rows(T, d + 1, K + base, k0, kKC, seq, d);
    __syncthreads();
    const int j = k0 + lane;
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int qi = warp + r * kWarps;
      const bool valid = j < seq && q0 + qi < seq;
      P[qi * kKC + lane] = valid ? expf(score(Qs, T, qi, lane, d, scale, slope, q0 + qi, j) - mx[r]) * inv[r] : 0.f;
    }
    __syncthreads();  // P written, the keys read: the values go into T
    load_rows(T, d + 1, V + base, k0, kKC, seq, d);
    __syncthreads();
    const int kn = min(kKC, seq - k0);
#pragma unroll
    for (int a = 0; a < kMaxAcc; ++a) {
      const int o = threadIdx.x + a * kThreads;
      if (o >= outs) break;
      const int qi = o / d, c = o % d;
      float s = acc[a];
      for (int kj = 0; kj < kn; ++kj) s = fmaf(P[qi * kKC + kj], T[kj * (d + 1) + c], s);
      acc[a] = s;
    }
  }
#pragma unroll
  for (int a = 0; a < kMaxAcc; ++a) {
    const int o = threadIdx.x + a * kThreads;
    if (o >= outs) break;
    const int qi = o / d, c = o % d;
    if (q0 + qi < seq) out[base + (size_t)(q0 + qi) * d + c] = acc[a];
  }
}

extern "C" void alibi_attention_f32(int heads, int seq, int d, const float* Q, const float* K, const float* V, const float* slopes,
                                    float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  float* stats = nullptr;
  const size_t rows = (size_t)heads * seq;
  cudaMallocAsync((void**)&stats, 2 * rows * sizeof(float), stream);
  const float scale = 1.0f / sqrtf((float)d);
  dim3 grid((unsigned int)((seq + kBQ - 1) / kBQ), (unsigned int)heads);
  const size_t smem_a = ((size_t)kBQ * d + (size_t)kKC * (d + 1)) * sizeof(float);
  const size_t smem_b = smem_a + (size_t)kBQ * kKC * sizeof(float);
  cudaFuncSetAttribute(row_stats, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_a);
  cudaFuncSetAttribute(weighted_values, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_b);
  row_stats<<<grid, kThreads, smem_a, stream>>>(seq, d, scale, Q, K, slopes, stats, stats + rows);
  weighted_values<<<grid, kThreads, smem_b, stream>>>(seq, d, scale, Q, K, V, slopes, stats, stats + rows, out);
  cudaFreeAsync(stats, stream);
}

// strategy: band_scores — a block of queries takes its whole key band [q0-w+1, q0+BQ) at once: every score of the band is kept in shared memory (K streamed through a padded 32-key tile), then an exact two-pass softmax per row (max, then exponentials and sum) and a P·V product with V streamed through the same tile; no online rescaling, the query tile shrinks when the band would not fit
#include <cuda_runtime.h>
#include <math.h>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kKC = 32;          // keys (or values) per shared-memory tile
constexpr int kMaxAcc = 16;      // outputs per thread: BQ * d <= 32 * 128 = kThreads * kMaxAcc
constexpr size_t kSmemLimit = 200 * 1024;

// Shared memory: Qs[bq][d] | S[bq][nb_max] | T[kKC][d + 1] (K, then V) | rowsum[bq]
__global__ void __launch_bounds__(kThreads)
band_kernel(int seq, int d, int w, int bq, int nb_max, float scale, const float* __restrict__ Q,
            const float* __restrict__ K, const float* __restrict__ V, float* __restrict__ out) {
  extern __shared__ float smem[];
  float* Qs = smem;
  float* S = Qs + bq * d;
  float* T = S + (size_t)bq * nb_max;
  float* rowsum = T + kKC * (d + 1);
  const int ts = d + 1;
  const size_t base = (size_t)blockIdx.y * (size_t)seq * (size_t)d;
  const int q0 = blockIdx.x * bq;
  const int q1 = min(seq, q0 + bq);
  const int lo = max(0, q0 - w + 1);
  const int nb = q1 - lo;  // keys of the band, <= nb_max
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  for (int e = tid; e < bq * d; e += kThreads) {
    const int qi = e / d, c = e % d;
    Qs[e] = (q0 + qi < seq) ? Q[base + (size_t)(q0 + qi) * d + c] : 0.f;
  }
  // Scores of the band, one 32-key tile at a time: pair (query qi, key lane) per thread.
  for (int k0 = 0; k0 < nb; k0 += kKC) {
    __syncthreads();  // Qs written / the previous tile read
    for (int e = tid; e < kKC * d; e += kThreads) {
      const int kj = e / d, c = e % d;
      const int j = lo + k0 + kj;
      T[kj * ts + c] = (k0 + kj < nb) ? K[base + (size_t)j * d + c] : 0.f;
    }
    __syncthreads();
    for (int p = tid; p < bq * kKC; p += kThreads) {
      const int qi = p / kKC, kj = p % kKC;
      if (k0 + kj >= nb) continue;
      float dot = 0.f;
      for (int c = 0; c < d; ++c) dot = fmaf(Qs[qi * d + c], T[kj * ts + c], dot);
      const int i = q0 + qi, j = lo + k0 + kj;
      const bool valid = i < seq && j <= i && j > i - w;
      S[(size_t)qi * nb_max + k0 + kj] = valid ? __fmul_rn(dot, scale) : -INFINITY;
    }
  }
  __syncthreads();
  // Exact softmax per row (a warp per row): the row's maximum, then p = exp(s - max) and their sum.
  for (int qi = warp; qi < bq; qi += kWarps) {
    float* row = S + (size_t)qi * nb_max;
    if (q0 + qi >= seq) {
      for (int j = lane; j < nb; j += 32) row[j] = 0.f;
      if (lane == 0) rowsum[qi] = 1.f;
      continue;
    }
    float m = -INFINITY;
    for (int j = lane; j < nb; j += 32) m = fmaxf(m, row[j]);
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float sum = 0.f;
    for (int j = lane; j < nb; j += 32) {
      const float p = row[j] == -INFINITY ? 0.f : expf(row[j] - m);
      row[j] = p;
      sum += p;
    }
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
    if (lane == 0) rowsum[qi] = sum;
  }
  // out = P V / rowsum: output (qi, c) = o / d for o = tid + r * kThreads.
  float acc[kMaxAcc];
#pragma unroll
  for (int r = 0; r < kMaxAcc; ++r) acc[r] = 0.f;
  const int outs = bq * d;
  for (int k0 = 0; k0 < nb; k0 += kKC) {
    __syncthreads();  // the softmax written / the previous tile read
    for (int e = tid; e < kKC * d; e += kThreads) {
      const int kj = e / d, c = e % d;
      T[kj * ts + c] = (k0 + kj < nb) ? V[base + (size_t)(lo + k0 + kj) * d + c] : 0.f;
    }
    __syncthreads();
    const int kn = min(kKC, nb - k0);
#pragma unroll
    for (int r = 0; r < kMaxAcc; ++r) {
      const int o = tid + r * kThreads;
      if (o >= outs) break;
      const int qi = o / d, c = o % d;
      const float* prow = S + (size_t)qi * nb_max + k0;
      float a = acc[r];
      for (int kj = 0; kj < kn; ++kj) a = fmaf(prow[kj], T[kj * ts + c], a);
      acc[r] = a;
    }
  }
#pragma unroll
  for (int r = 0; r < kMaxAcc; ++r) {
    const int o = tid + r * kThreads;
    if (o >= outs) break;
    const int qi = o / d, c = o % d;
    if (q0 + qi < seq) out[base + (size_t)(q0 + qi) * d + c] = acc[r] / rowsum[qi];
  }
}

static size_t band_smem(int bq, int d, int nb_max) {
  return ((size_t)bq * d + (size_t)bq * nb_max + (size_t)kKC * (d + 1) + bq) * sizeof(float);
}

extern "C" void sliding_window_attention_f32(int heads, int seq, int d, int w, const float* Q, const float* K, const float* V,
                                             float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  if (w < 1) w = 1;
  int bq = 32;  // the largest query tile whose band of scores fits
  int nb_max = 0;
  for (;; bq >>= 1) {
    nb_max = (int)(((long long)bq + w - 1) < seq ? bq + w - 1 : seq);
    if (band_smem(bq, d, nb_max) <= kSmemLimit || bq == 1) break;
  }
  const size_t smem = band_smem(bq, d, nb_max);
  cudaFuncSetAttribute(band_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  const float scale = 1.0f / sqrtf((float)d);
  dim3 grid((unsigned int)((seq + bq - 1) / bq), (unsigned int)heads);
  band_kernel<<<grid, kThreads, smem, stream>>>(seq, d, w, bq, nb_max, scale, Q, K, V, out);
}

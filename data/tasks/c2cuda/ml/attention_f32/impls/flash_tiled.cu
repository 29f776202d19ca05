// strategy: flash_tiled — one 256-thread block per (batch element, 32-query tile); K/V streamed through shared memory in 32-key tiles with an online (running max, rescaled sum) softmax; each warp owns 4 query rows end to end (scores with lane = key, shuffle max/sum, register-blocked P·V with lanes over d), so only the K/V tile loads need block barriers
#include <cuda_runtime.h>
#include <math.h>

#define QT 32       // queries per block
#define KT 32       // keys per tile (= warp width: lane j owns key j of the tile)
#define NW 8        // warps per block
#define RPW (QT / NW)  // query rows per warp

__global__ void __launch_bounds__(NW * 32)
attention_flash_kernel(int seq, int d, int qtiles, float scale, const float* __restrict__ Q,
                       const float* __restrict__ K, const float* __restrict__ V, float* __restrict__ out) {
  extern __shared__ float sm[];
  const int ldk = (d & 1) ? d : d + 1;  // odd row stride: lane-indexed K rows hit distinct banks
  float* Qs = sm;                        // QT x d
  float* Ks = Qs + QT * d;               // KT x ldk
  float* Vs = Ks + KT * ldk;             // KT x d
  float* Os = Vs + KT * d;               // QT x d (un-normalised output accumulators)
  float* Ps = Os + QT * d;               // QT x (KT + 1)

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long b = blockIdx.x / qtiles;
  const int q0 = (int)(blockIdx.x - b * qtiles) * QT;
  const int nq = min(QT, seq - q0);
  const long long base = b * (long long)seq * d;

  for (int e = threadIdx.x; e < QT * d; e += NW * 32) {
    const int r = e / d;
    Qs[e] = (r < nq) ? Q[base + (long long)q0 * d + e] : 0.f;
    Os[e] = 0.f;
  }
  float m_run[RPW], l_run[RPW];
#pragma unroll
  for (int r = 0; r < RPW; ++r) {
    m_run[r] = -INFINITY;
    l_run[r] = 0.f;
  }

  for (int k0 = 0; k0 < seq; k0 += KT) {
    const int nk = min(KT, seq - k0);
    __syncthreads();  // previous tile fully consumed (and Qs/Os initialised on the first pass)
    for (int e = threadIdx.x; e < KT * d; e += NW * 32) {
      const int j = e / d, c = e - j * d;
      const bool ok = j < nk;
      Ks[j * ldk + c] = ok ? K[base + (long long)k0 * d + e] : 0.f;
      Vs[e] = ok ? V[base + (long long)k0 * d + e] : 0.f;
    }
    __syncthreads();

    // scores: rows warp + NW*r, key = lane
    float acc[RPW];
#pragma unroll
    for (int r = 0; r < RPW; ++r) acc[r] = 0.f;
    const float* krow = Ks + lane * ldk;
    for (int c = 0; c < d; ++c) {
      const float kv = krow[c];
#pragma unroll
      for (int r = 0; r < RPW; ++r) acc[r] = fmaf(Qs[(warp + NW * r) * d + c], kv, acc[r]);
    }
    float corr[RPW];
#pragma unroll
    for (int r = 0; r < RPW; ++r) {
      const float s = (lane < nk) ? acc[r] * scale : -INFINITY;
      float tmax = s;
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, off));
      const float m_new = fmaxf(m_run[r], tmax);  // finite: nk >= 1
      const float p = (lane < nk) ? expf(s - m_new) : 0.f;
      float psum = p;
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) psum += __shfl_xor_sync(0xffffffffu, psum, off);
      corr[r] = expf(m_run[r] - m_new);  // expf(-inf) = 0 on the first tile
      l_run[r] = l_run[r] * corr[r] + psum;
      m_run[r] = m_new;
      Ps[(warp + NW * r) * (KT + 1) + lane] = p;
    }
    __syncwarp();  // this warp's P rows are visible to all its lanes

    // O[row][c] = O[row][c] * corr + sum_j P[row][j] * V[j][c]; lanes over c, 64 columns per chunk
    for (int cb = 0; cb < d; cb += 64) {
      const int c0 = cb + lane, c1 = cb + 32 + lane;
      const bool h0 = c0 < d, h1 = c1 < d;
      float o[RPW][2];
#pragma unroll
      for (int r = 0; r < RPW; ++r) {
        const int row = warp + NW * r;
        o[r][0] = h0 ? Os[row * d + c0] * corr[r] : 0.f;
        o[r][1] = h1 ? Os[row * d + c1] * corr[r] : 0.f;
      }
      for (int j = 0; j < nk; ++j) {
        const float v0 = h0 ? Vs[j * d + c0] : 0.f;
        const float v1 = h1 ? Vs[j * d + c1] : 0.f;
#pragma unroll
        for (int r = 0; r < RPW; ++r) {
          const float p = Ps[(warp + NW * r) * (KT + 1) + j];
          o[r][0] = fmaf(p, v0, o[r][0]);
          o[r][1] = fmaf(p, v1, o[r][1]);
        }
      }
#pragma unroll
      for (int r = 0; r < RPW; ++r) {
        const int row = warp + NW * r;
        if (h0) Os[row * d + c0] = o[r][0];
        if (h1) Os[row * d + c1] = o[r][1];
      }
    }
    __syncwarp();  // Ps rows are rewritten by this warp on the next tile
  }

  // each warp normalises and writes its own rows (it is the only writer of those Os entries)
#pragma unroll
  for (int r = 0; r < RPW; ++r) {
    const int row = warp + NW * r;
    if (row >= nq) continue;
    const float inv = 1.f / l_run[r];
    float* orow = out + base + (long long)(q0 + row) * d;
    for (int c = lane; c < d; c += 32) orow[c] = Os[row * d + c] * inv;
  }
}

extern "C" void attention_f32(int batch, int seq, int d, const float* Q, const float* K, const float* V, float* out,
                              cudaStream_t stream) {
  if (batch <= 0 || seq <= 0 || d <= 0) return;
  const int ldk = (d & 1) ? d : d + 1;
  const size_t smem = ((size_t)QT * d + (size_t)KT * ldk + (size_t)KT * d + (size_t)QT * d + (size_t)QT * (KT + 1)) *
                      sizeof(float);
  if (smem > 48 * 1024)
    cudaFuncSetAttribute(attention_flash_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  const int qtiles = (seq + QT - 1) / QT;
  const long long blocks = (long long)batch * qtiles;
  const float scale = (float)(1.0 / sqrt((double)d));
  attention_flash_kernel<<<(unsigned)blocks, NW * 32, smem, stream>>>(seq, d, qtiles, scale, Q, K, V, out);
}

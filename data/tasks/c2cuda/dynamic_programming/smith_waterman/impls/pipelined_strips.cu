// strategy: pipelined_strips — a single launch: each warp owns a 32-row strip and sweeps it left to right as a skewed wavefront (lane = row, neighbours by __shfl_up_sync); strips are chained by per-strip progress flags in global memory (blocks take strips in start order from an atomic ticket, so the chain cannot deadlock) and 32x32 chunks are staged in shared memory for coalesced stores
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void __launch_bounds__(32) sw_pipe_kernel(int n, int m, int match, int mismatch, int gap,
                                                     const unsigned char* __restrict__ a,
                                                     const unsigned char* __restrict__ b, int* H,
                                                     unsigned int* ticket, volatile int* progress) {
  __shared__ int stage[32 * 64];  // ring of two 32x32 column chunks, row stride 64
  __shared__ int topbuf[32];
  __shared__ int s_strip;
  const int lane = threadIdx.x;
  if (lane == 0) s_strip = (int)atomicAdd(ticket, 1u);
  __syncwarp();
  const int strip = s_strip;
  const int r0 = strip * 32;
  const int i = r0 + lane;
  const int sc = i < n ? (int)a[i] : 255;
  const int C = (m + 31) / 32;  // column chunks
  int val = 0;                  // H[i][j-1], border 0
  int lastUp = 0;               // H[i-1][j-1], border 0
  const int total = 32 * C + 31;
  for (int st = 0; st < total; ++st) {
    if ((st & 31) == 0 && (st >> 5) < C) {  // lane 0 enters chunk c: fetch the row above it
      const int c = st >> 5;
      const int j = c * 32 + lane;
      if (strip > 0) {
        if (lane == 0) {
          while (progress[strip - 1] <= c) {
          }
        }
        __syncwarp();
        __threadfence();
        topbuf[lane] = j < m ? __ldcg(H + (long long)(r0 - 1) * m + j) : 0;
      } else {
        topbuf[lane] = 0;
      }
      __syncwarp();
    }
    int up = __shfl_up_sync(FULL_MASK, val, 1);
    const int jc = st - lane;
    if (jc >= 0 && jc < 32 * C) {
      if (lane == 0) up = topbuf[jc & 31];
      const int tc = jc < m ? (int)__ldg(b + jc) : 254;
      int v = lastUp + (sc == tc ? match : mismatch);
      v = max(v, up - gap);
      v = max(v, val - gap);
      v = max(v, 0);
      lastUp = up;
      val = v;
      stage[lane * 64 + (jc & 63)] = v;
    }
    __syncwarp();
    if (st >= 62 && ((st - 62) & 31) == 0) {  // chunk c is complete in every row: store and publish
      const int c = (st - 62) >> 5;
      if (c < C) {
        const int j = c * 32 + lane;
        if (j < m) {
          for (int r = 0; r < 32; ++r) {
            if (r0 + r >= n) break;
            H[(long long)(r0 + r) * m + j] = stage[r * 64 + (j & 63)];
          }
        }
        __threadfence();
        __syncwarp();
        if (lane == 0) progress[strip] = c + 1;
      }
    }
  }
}

extern "C" void smith_waterman(int n, int m, int match, int mismatch, int gap, const unsigned char* a,
                               const unsigned char* b, int* H, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const int nstrips = (n + 31) / 32;
  int* scratch = nullptr;
  cudaMallocAsync((void**)&scratch, sizeof(int) * (size_t)(nstrips + 1), stream);
  cudaMemsetAsync(scratch, 0, sizeof(int) * (size_t)(nstrips + 1), stream);
  sw_pipe_kernel<<<nstrips, 32, 0, stream>>>(n, m, match, mismatch, gap, a, b, H,
                                             reinterpret_cast<unsigned int*>(scratch), scratch + 1);
  cudaFreeAsync(scratch, stream);
}

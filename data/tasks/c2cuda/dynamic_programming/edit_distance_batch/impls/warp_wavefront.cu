// strategy: warp_wavefront — one warp per pair sweeps the DP in 32-row strips along anti-diagonals: lane k owns row r0+k+1, gets D[i-1][j] from lane k-1 by __shfl_up_sync, and the strip boundary row lives in shared memory
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void edit_distance_warp_kernel(int P, int L, const unsigned char* __restrict__ a,
                                          const unsigned char* __restrict__ b, int* __restrict__ dist) {
  extern __shared__ int smem[];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int wpb = blockDim.x >> 5;
  const int p = blockIdx.x * wpb + warp;
  if (p >= P) return;  // uniform per warp
  if (L == 0) {
    if (lane == 0) dist[p] = 0;
    return;
  }
  int* buf = smem + warp * (L + 1);                                              // boundary row D[r0][*]
  unsigned char* tb = reinterpret_cast<unsigned char*>(smem + wpb * (L + 1)) + warp * L;  // string b
  const unsigned char* s = a + (size_t)p * L;
  const unsigned char* t = b + (size_t)p * L;
  for (int j = lane; j <= L; j += 32) buf[j] = j;
  for (int j = lane; j < L; j += 32) tb[j] = t[j];
  __syncwarp();
  for (int r0 = 0; r0 < L; r0 += 32) {
    const int i = r0 + lane + 1;
    const bool rowok = i <= L;
    const int sc = rowok ? (int)s[i - 1] : -1;
    int val = i;         // most recent value of this row: D[i][0] initially
    int lastUp = i - 1;  // D[i-1][j-1] for the next column: D[i-1][0] initially
    const int steps = L + 31;
    for (int st = 0; st < steps; ++st) {
      int up = __shfl_up_sync(FULL_MASK, val, 1);
      const int j = st - lane + 1;
      const bool act = rowok && j >= 1 && j <= L;
      if (act) {
        if (lane == 0) up = buf[j];
        int v = min(min(up + 1, val + 1), lastUp + (sc != (int)tb[j - 1]));
        lastUp = up;
        val = v;
        if (lane == 31) buf[j] = v;  // lane 0 of this strip read buf[j] 31 steps ago
      }
      __syncwarp();
    }
    if (i == L) dist[p] = val;
  }
}

extern "C" void edit_distance_batch(int P, int L, const unsigned char* a, const unsigned char* b, int* dist,
                                    cudaStream_t stream) {
  if (P <= 0) return;
  int wpb = 4;
  size_t per_warp = sizeof(int) * (size_t)(L + 1) + (size_t)L;
  while (wpb > 1 && per_warp * wpb > 48 * 1024) wpb >>= 1;
  size_t shmem = sizeof(int) * (size_t)wpb * (L + 1) + (size_t)wpb * L;
  const int blocks = (P + wpb - 1) / wpb;
  edit_distance_warp_kernel<<<blocks, wpb * 32, shmem, stream>>>(P, L, a, b, dist);
}

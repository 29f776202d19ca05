// strategy: interleaved_rows — one thread per pair, but the DP row scratch is stored column-interleaved (row[j*P + p]) so a warp's loads and stores of cell j are coalesced; the up/diag values ride in registers
#include <cuda_runtime.h>

__global__ void edit_distance_interleaved_kernel(int P, int L, const unsigned char* __restrict__ a,
                                                 const unsigned char* __restrict__ b, int* __restrict__ rows,
                                                 int* __restrict__ dist) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  const unsigned char* s = a + (size_t)p * L;
  const unsigned char* t = b + (size_t)p * L;
  // rows[j*P + p] holds D[i-1][j] for j in [1, L]; column 0 is implicit (D[i][0] = i)
  for (int j = 1; j <= L; ++j) rows[(size_t)j * P + p] = j;
  for (int i = 1; i <= L; ++i) {
    const unsigned char sc = __ldg(s + i - 1);
    int diag = i - 1;  // D[i-1][0]
    int left = i;      // D[i][0]
    for (int j = 1; j <= L; ++j) {
      size_t idx = (size_t)j * P + p;
      int up = rows[idx];
      int v = min(min(up + 1, left + 1), diag + (sc != __ldg(t + j - 1)));
      rows[idx] = v;
      diag = up;
      left = v;
    }
  }
  dist[p] = (L == 0) ? 0 : rows[(size_t)L * P + p];
}

extern "C" void edit_distance_batch(int P, int L, const unsigned char* a, const unsigned char* b, int* dist,
                                    cudaStream_t stream) {
  if (P <= 0) return;
  int* rows = nullptr;
  cudaMallocAsync((void**)&rows, sizeof(int) * (size_t)P * (size_t)(L + 1), stream);
  const int threads = 128;
  edit_distance_interleaved_kernel<<<(P + threads - 1) / threads, threads, 0, stream>>>(P, L, a, b, rows, dist);
  cudaFreeAsync(rows, stream);
}

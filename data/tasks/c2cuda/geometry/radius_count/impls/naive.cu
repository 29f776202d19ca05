// strategy: naive (weak) — one thread per query point compares it with every point of B read straight from global memory (three scalar loads per pair)
#include <cuda_runtime.h>

__global__ void radius_naive_kernel(int na, int nb, int r2, const int* a, const int* b, int* cnt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= na) return;
  int ax = a[3 * i], ay = a[3 * i + 1], az = a[3 * i + 2];
  int c = 0;
  for (int j = 0; j < nb; ++j) {
    int dx = ax - b[3 * j], dy = ay - b[3 * j + 1], dz = az - b[3 * j + 2];
    if (dx * dx + dy * dy + dz * dz <= r2) c++;
  }
  cnt[i] = c;
}

extern "C" void radius_count(int na, int nb, int r2, const int* a, const int* b, int* cnt, cudaStream_t stream) {
  if (na <= 0) return;
  const int threads = 128;
  radius_naive_kernel<<<(na + threads - 1) / threads, threads, 0, stream>>>(na, nb, r2, a, b, cnt);
}

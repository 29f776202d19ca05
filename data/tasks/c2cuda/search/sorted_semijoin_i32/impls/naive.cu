// strategy: naive (weak) — one thread per element of a binary-searches all of b in global memory and every hit does its own global atomicAdd on the single total counter
#include <cuda_runtime.h>

__global__ void semijoin_naive_kernel(int na, int nb, const int* a, const int* b, int* hit, int* total) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= na) return;
  const int v = a[i];
  int lo = 0, hi = nb;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (b[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  const int h = (lo < nb && b[lo] == v) ? 1 : 0;
  hit[i] = h;
  if (h) atomicAdd(total, 1);
}

extern "C" void sorted_semijoin_i32(int na, int nb, const int* a, const int* b, int* hit, int* total,
                                    cudaStream_t stream) {
  cudaMemsetAsync(total, 0, sizeof(int), stream);
  if (na <= 0) return;
  semijoin_naive_kernel<<<(unsigned)(((long long)na + 255) / 256), 256, 0, stream>>>(na, nb, a, b, hit, total);
}

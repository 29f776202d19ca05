// strategy: naive (weak) — one launch per generation, one thread per cell with consecutive threads walking down a column (uncoalesced byte loads), 8 wrapped neighbour reads from global memory
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
__global__ void life_step_naive(int n, int m, const uint8_t* a, uint8_t* b) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)n * m) return;
  const int i = (int)(t % n);  // column-major walk: neighbouring threads are a row apart
  const int j = (int)(t / n);
  const int up = (i + n - 1) % n, dn = (i + 1) % n;
  const int lf = (j + m - 1) % m, rt = (j + 1) % m;
  int cnt = 0;
  cnt += a[(long long)up * m + lf];
  cnt += a[(long long)up * m + j];
  cnt += a[(long long)up * m + rt];
  cnt += a[(long long)i * m + lf];
  cnt += a[(long long)i * m + rt];
  cnt += a[(long long)dn * m + lf];
  cnt += a[(long long)dn * m + j];
  cnt += a[(long long)dn * m + rt];
  const uint8_t alive = a[(long long)i * m + j];
  b[(long long)i * m + j] = (cnt == 3 || (alive && cnt == 2)) ? 1 : 0;
}

__global__ void life_copy_naive(long long total, const uint8_t* src, uint8_t* dst) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < total) dst[t] = src[t];
}
}  // namespace

extern "C" void life_torus(int n, int m, int k, const uint8_t* cells, uint8_t* out,
                           cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const long long total = (long long)n * m;
  const int block = 128;
  const int grid = (int)((total + block - 1) / block);
  if (k <= 0) {
    life_copy_naive<<<grid, block, 0, stream>>>(total, cells, out);
    return;
  }
  uint8_t* tmp = nullptr;
  if (k > 1) cudaMallocAsync(&tmp, (size_t)total, stream);
  const uint8_t* src = cells;
  uint8_t* dst = (k % 2 == 1) ? out : tmp;  // the k-th generation lands in out
  for (int s = 0; s < k; ++s) {
    life_step_naive<<<grid, block, 0, stream>>>(n, m, src, dst);
    src = dst;
    dst = (dst == out) ? tmp : out;
  }
  if (tmp) cudaFreeAsync(tmp, stream);
}

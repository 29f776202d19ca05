// strategy: naive (weak) — one launch per step, each thread walks its own contiguous chunk of 64 cells (strided, uncoalesced byte accesses across the warp), ping-pong through a scratch buffer
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
constexpr int kChunk = 64;

__global__ void eca_step_naive(int n, int rule, const uint8_t* a, uint8_t* b) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long lo = t * kChunk;
  for (long long i = lo; i < lo + kChunk && i < n; ++i) {
    const int l = a[i == 0 ? n - 1 : i - 1];
    const int r = a[i == n - 1 ? 0 : i + 1];
    b[i] = (uint8_t)((rule >> (4 * l + 2 * a[i] + r)) & 1);
  }
}

__global__ void eca_copy_naive(int n, const uint8_t* src, uint8_t* dst) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n) dst[t] = src[t];
}
}  // namespace

extern "C" void eca_steps(int n, int k, int rule, const uint8_t* cells, uint8_t* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  if (k <= 0) {
    eca_copy_naive<<<(n + 255) / 256, 256, 0, stream>>>(n, cells, out);
    return;
  }
  const int block = 64;
  const long long chunks = ((long long)n + kChunk - 1) / kChunk;
  const int grid = (int)((chunks + block - 1) / block);
  uint8_t* tmp = nullptr;
  if (k > 1) cudaMallocAsync(&tmp, (size_t)n, stream);
  const uint8_t* src = cells;
  uint8_t* dst = (k % 2 == 1) ? out : tmp;
  for (int s = 0; s < k; ++s) {
    eca_step_naive<<<grid, block, 0, stream>>>(n, rule, src, dst);
    src = dst;
    dst = (dst == out) ? tmp : out;
  }
  if (tmp) cudaFreeAsync(tmp, stream);
}

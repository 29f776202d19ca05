// strategy: naive (weak) — one worker thread per 256-element chunk counts its run heads serially, a single thread scans all chunk counts, then one thread per chunk serially writes that chunk's distinct values and start positions; a last pass turns start positions into run lengths
#include <cuda_runtime.h>

namespace {

constexpr int kChunk = 256;

__global__ void chunk_count(int n, const int* a, int* cnt) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long b0 = c * kChunk;
  if (b0 >= n) return;
  const long long b1 = min(b0 + kChunk, (long long)n);
  int s = 0;
  for (long long i = b0; i < b1; ++i) s += (i == 0 || a[i] != a[i - 1]) ? 1 : 0;
  cnt[c] = s;
}

__global__ void serial_scan(int chunks, int* cnt, int* nuniq) {
  int run = 0;
  for (int c = 0; c < chunks; ++c) {
    const int v = cnt[c];
    cnt[c] = run;
    run += v;
  }
  nuniq[0] = run;
}

__global__ void chunk_emit(int n, const int* a, const int* off, int* vals, int* pos) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long b0 = c * kChunk;
  if (b0 >= n) return;
  const long long b1 = min(b0 + kChunk, (long long)n);
  int k = off[c];
  for (long long i = b0; i < b1; ++i)
    if (i == 0 || a[i] != a[i - 1]) {
      vals[k] = a[i];
      pos[k] = (int)i;
      ++k;
    }
}

__global__ void finish_runs(int n, const int* nuniq, const int* pos, int* vals, int* runs) {
  const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int u = *nuniq;
  if (k < u) {
    runs[k] = (k + 1 < u ? pos[k + 1] : n) - pos[k];
  } else {
    vals[k] = 0;
    runs[k] = 0;
  }
}

}  // namespace

extern "C" void rle_sorted_i32(int n, const int* a, int* vals, int* runs, int* nuniq, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(nuniq, 0, sizeof(int), stream);
    return;
  }
  const int chunks = (int)(((long long)n + kChunk - 1) / kChunk);
  int* cnt = nullptr;
  int* pos = nullptr;
  cudaMallocAsync((void**)&cnt, sizeof(int) * (size_t)chunks, stream);
  cudaMallocAsync((void**)&pos, sizeof(int) * (size_t)n, stream);
  const unsigned cb = (unsigned)((chunks + 127) / 128);
  chunk_count<<<cb, 128, 0, stream>>>(n, a, cnt);
  serial_scan<<<1, 1, 0, stream>>>(chunks, cnt, nuniq);
  chunk_emit<<<cb, 128, 0, stream>>>(n, a, cnt, vals, pos);
  finish_runs<<<(unsigned)(((long long)n + 255) / 256), 256, 0, stream>>>(n, nuniq, pos, vals, runs);
  cudaFreeAsync(pos, stream);
  cudaFreeAsync(cnt, stream);
}

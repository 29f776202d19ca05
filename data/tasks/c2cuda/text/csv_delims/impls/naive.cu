// strategy: naive (weak) — one thread per 4096-byte chunk counts quotes and delimiters byte by byte (uncoalesced), a single thread scans the chunk totals serially, then one thread per chunk rescans its bytes and writes positions; a last kernel pads with -1
#include <cuda_runtime.h>

namespace {

constexpr int kChunk = 4096;

// per chunk: quote parity, delimiters if the chunk starts outside quotes, delimiter candidates
__global__ void csv_naive_count(int n, const unsigned char* data, int* parity, int* c_out, int* c_all, int nchunks) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nchunks) return;
  const long long s = (long long)c * kChunk;
  const long long e = (s + kChunk < n) ? s + kChunk : n;
  int q = 0, k0 = 0, ka = 0;
  for (long long i = s; i < e; ++i) {
    const unsigned char b = data[i];
    if (b == '"') q ^= 1;
    else if (b == ',' || b == '\n') {
      ++ka;
      if (!q) ++k0;
    }
  }
  parity[c] = q;
  c_out[c] = k0;
  c_all[c] = ka;
}

__global__ void csv_naive_scan(int nchunks, int* parity, int* c_out, const int* c_all, int* count) {
  int state = 0, off = 0;
  for (int c = 0; c < nchunks; ++c) {
    const int q = parity[c];
    const int d = state ? c_all[c] - c_out[c] : c_out[c];
    parity[c] = state;  // now: the state at the chunk's start
    c_out[c] = off;     // now: the chunk's first output slot
    state ^= q;
    off += d;
  }
  count[0] = off;
}

__global__ void csv_naive_emit(int n, const unsigned char* data, const int* start_state, const int* start_off,
                               int* pos, int nchunks) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nchunks) return;
  const long long s = (long long)c * kChunk;
  const long long e = (s + kChunk < n) ? s + kChunk : n;
  int inside = start_state[c], off = start_off[c];
  for (long long i = s; i < e; ++i) {
    const unsigned char b = data[i];
    if (b == '"') inside ^= 1;
    else if (!inside && (b == ',' || b == '\n')) pos[off++] = (int)i;
  }
}

__global__ void csv_naive_fill(int n, const int* count, int* pos) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i >= count[0]) pos[i] = -1;
}

}  // namespace

extern "C" void csv_delims(int n, const unsigned char* data, int* count, int* pos, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(count, 0, sizeof(int), stream);
    return;
  }
  const int nchunks = (int)(((long long)n + kChunk - 1) / kChunk);
  int* scratch = nullptr;
  cudaMallocAsync((void**)&scratch, 3 * (size_t)nchunks * sizeof(int), stream);
  int* parity = scratch;
  int* c_out = scratch + nchunks;
  int* c_all = scratch + 2 * (size_t)nchunks;
  const int threads = 128;
  const int blocks = (nchunks + threads - 1) / threads;
  csv_naive_count<<<blocks, threads, 0, stream>>>(n, data, parity, c_out, c_all, nchunks);
  csv_naive_scan<<<1, 1, 0, stream>>>(nchunks, parity, c_out, c_all, count);
  csv_naive_emit<<<blocks, threads, 0, stream>>>(n, data, parity, c_out, pos, nchunks);
  csv_naive_fill<<<(n + 255) / 256, 256, 0, stream>>>(n, count, pos);
  cudaFreeAsync(scratch, stream);
}

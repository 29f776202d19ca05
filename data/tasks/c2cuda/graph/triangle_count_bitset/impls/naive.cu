// strategy: naive (weak) — one thread per ordered pair (i, j): if {i, j} is an edge it walks the words of rows i and j alone (each lane reads a different row j: uncoalesced), popcounts the AND and adds to tri[i] with a global atomic
#include <cuda_runtime.h>

__global__ void tri_zero(int n, int* tri) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tri[i] = 0;
}

__global__ void tri_pair_naive(int n, int W, const unsigned int* adj, int* tri) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)n * n) return;
  int i = (int)(idx / n), j = (int)(idx % n);
  if (j <= i) return;
  const unsigned int* ri = adj + (size_t)i * W;
  const unsigned int* rj = adj + (size_t)j * W;
  if (!((ri[j >> 5] >> (j & 31)) & 1u)) return;
  unsigned int tail = (n & 31) ? ((1u << (n & 31)) - 1u) : 0xFFFFFFFFu;
  int w0 = j >> 5;
  int count = 0;
  for (int w = w0; w < W; ++w) {
    unsigned int m = ri[w] & rj[w];
    if (w == w0) m &= (unsigned int)(0xFFFFFFFFull << ((j & 31) + 1));
    if (w == W - 1) m &= tail;
    count += __popc(m);
  }
  if (count) atomicAdd(tri + i, count);
}

extern "C" void triangle_count_bitset(int n, const unsigned int* adj, int* tri, cudaStream_t stream) {
  if (n <= 0) return;
  const int W = (n + 31) / 32;
  const int threads = 256;
  tri_zero<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, tri);
  long long pairs = (long long)n * n;
  tri_pair_naive<<<(unsigned int)((pairs + threads - 1) / threads), threads, 0, stream>>>(n, W, adj, tri);
}

// strategy: bitsliced — the ring is packed 32 cells per word; each step one thread per word evaluates the rule for 32 cells at once as an OR of the rule's minterms over (left, centre, right) bit-planes, then one unpacking pass
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
__global__ void eca_pack(int n, int W, const uint8_t* __restrict__ cells,
                         uint32_t* __restrict__ packed) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= W) return;
  const long long c0 = (long long)w * 32;
  const long long cend = c0 + 32 < n ? c0 + 32 : n;
  uint32_t x = 0;
  for (long long c = c0; c < cend; ++c) x |= (uint32_t)(cells[c] & 1) << (int)(c - c0);
  packed[w] = x;
}

__global__ void eca_unpack(int n, const uint32_t* __restrict__ packed, uint8_t* __restrict__ out) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = (uint8_t)((packed[i >> 5] >> (i & 31)) & 1u);
}

__global__ void eca_step_bits(int n, int W, int rule, const uint32_t* __restrict__ a,
                              uint32_t* __restrict__ b) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= W) return;
  const int L = n - 32 * (W - 1);  // valid bits of the last word, 1..32
  const uint32_t mask = (w == W - 1 && L < 32) ? ((1u << L) - 1u) : 0xffffffffu;
  const uint32_t c = a[w];
  // right neighbour of column j is j+1: shift down, pull in bit 0 of the next word (wrapping)
  const uint32_t nxt = (w + 1 < W) ? (a[w + 1] & 1u) << 31 : (a[0] & 1u) << (L - 1);
  const uint32_t r = (c >> 1) | nxt;
  const uint32_t prv = (w > 0) ? a[w - 1] >> 31 : (a[W - 1] >> (L - 1)) & 1u;
  const uint32_t l = ((c << 1) | prv) & mask;
  uint32_t acc = 0;
#pragma unroll
  for (int p = 0; p < 8; ++p) {
    if ((rule >> p) & 1) {
      const uint32_t tl = (p & 4) ? l : ~l;
      const uint32_t tc = (p & 2) ? c : ~c;
      const uint32_t tr = (p & 1) ? r : ~r;
      acc |= tl & tc & tr;
    }
  }
  b[w] = acc & mask;
}
}  // namespace

extern "C" void eca_steps(int n, int k, int rule, const uint8_t* cells, uint8_t* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  const int W = (int)(((long long)n + 31) / 32);
  uint32_t* pa = nullptr;
  uint32_t* pb = nullptr;
  cudaMallocAsync(&pa, (size_t)W * sizeof(uint32_t), stream);
  cudaMallocAsync(&pb, (size_t)W * sizeof(uint32_t), stream);
  const int block = 256;
  const int gw = (W + block - 1) / block;
  eca_pack<<<gw, block, 0, stream>>>(n, W, cells, pa);
  for (int s = 0; s < k; ++s) {
    eca_step_bits<<<gw, block, 0, stream>>>(n, W, rule, pa, pb);
    uint32_t* t = pa;
    pa = pb;
    pb = t;
  }
  eca_unpack<<<(int)(((long long)n + block - 1) / block), block, 0, stream>>>(n, pa, out);
  cudaFreeAsync(pa, stream);
  cudaFreeAsync(pb, stream);
}

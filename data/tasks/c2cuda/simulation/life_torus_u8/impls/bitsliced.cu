// strategy: bitsliced — cells packed 32 per 32-bit word (one packing pass), each generation one thread per word counts the 8 neighbour bit-planes with a carry-save bitsliced adder, then one unpacking pass back to bytes
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
// Packs row i of the byte grid into W words; bit b of word w is column 32*w + b; unused high bits
// of the last word are zero.
__global__ void life_pack(int n, int m, int W, const uint8_t* __restrict__ cells,
                          uint32_t* __restrict__ packed) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)n * W) return;
  const int i = (int)(t / W), w = (int)(t % W);
  const uint8_t* row = cells + (long long)i * m;
  const int c0 = w * 32;
  const int cend = min(c0 + 32, m);
  uint32_t x = 0;
  for (int c = c0; c < cend; ++c) x |= (uint32_t)(row[c] & 1) << (c - c0);
  packed[t] = x;
}

__global__ void life_unpack(int n, int m, int W, const uint32_t* __restrict__ packed,
                            uint8_t* __restrict__ out) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)n * m) return;
  const int i = (int)(t / m), j = (int)(t % m);
  const uint32_t x = packed[(long long)i * W + (j >> 5)];
  out[t] = (uint8_t)((x >> (j & 31)) & 1u);
}

// Neighbour words of a row: east bits hold column j+1, west bits column j-1 (wrapping), for word w.
__device__ __forceinline__ void shifts(const uint32_t* __restrict__ row, int W, int w, int L,
                                       uint32_t mask, uint32_t x, uint32_t& east,
                                       uint32_t& west) {
  const uint32_t nxt = (w + 1 < W) ? (row[w + 1] & 1u) << 31 : (row[0] & 1u) << (L - 1);
  east = (x >> 1) | nxt;
  const uint32_t prv = (w > 0) ? row[w - 1] >> 31 : (row[W - 1] >> (L - 1)) & 1u;
  west = ((x << 1) | prv) & mask;
}

__device__ __forceinline__ void add_bit(uint32_t v, uint32_t& s0, uint32_t& s1, uint32_t& s2) {
  const uint32_t c0 = s0 & v;
  s0 ^= v;
  const uint32_t c1 = s1 & c0;
  s1 ^= c0;
  s2 |= c1;  // counts >= 4 only need "at least 4": no cell with >= 4 neighbours lives
}

__global__ void life_step_bits(int n, int m, int W, const uint32_t* __restrict__ a,
                               uint32_t* __restrict__ b) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)n * W) return;
  const int i = (int)(t / W), w = (int)(t % W);
  const int L = m - 32 * (W - 1);  // valid bits in the last word, 1..32
  const uint32_t mask = (w == W - 1 && L < 32) ? ((1u << L) - 1u) : 0xffffffffu;
  const uint32_t* ru = a + (long long)((i + n - 1) % n) * W;
  const uint32_t* rc = a + (long long)i * W;
  const uint32_t* rd = a + (long long)((i + 1) % n) * W;
  const uint32_t xu = ru[w], xc = rc[w], xd = rd[w];
  uint32_t eu, wu, ec, wc, ed, wd;
  shifts(ru, W, w, L, mask, xu, eu, wu);
  shifts(rc, W, w, L, mask, xc, ec, wc);
  shifts(rd, W, w, L, mask, xd, ed, wd);
  uint32_t s0 = 0, s1 = 0, s2 = 0;
  add_bit(xu, s0, s1, s2);
  add_bit(eu, s0, s1, s2);
  add_bit(wu, s0, s1, s2);
  add_bit(ec, s0, s1, s2);
  add_bit(wc, s0, s1, s2);
  add_bit(xd, s0, s1, s2);
  add_bit(ed, s0, s1, s2);
  add_bit(wd, s0, s1, s2);
  // alive next: count == 3, or count == 2 and alive now  ->  s1 & ~s2 & (s0 | alive)
  b[t] = (s1 & ~s2 & (s0 | xc)) & mask;
}
}  // namespace

extern "C" void life_torus(int n, int m, int k, const uint8_t* cells, uint8_t* out,
                           cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const int W = (m + 31) / 32;
  const long long words = (long long)n * W;
  uint32_t* pa = nullptr;
  uint32_t* pb = nullptr;
  cudaMallocAsync(&pa, (size_t)words * sizeof(uint32_t), stream);
  cudaMallocAsync(&pb, (size_t)words * sizeof(uint32_t), stream);
  const int block = 256;
  const int gw = (int)((words + block - 1) / block);
  life_pack<<<gw, block, 0, stream>>>(n, m, W, cells, pa);
  for (int s = 0; s < k; ++s) {
    life_step_bits<<<gw, block, 0, stream>>>(n, m, W, pa, pb);
    uint32_t* t = pa;
    pa = pb;
    pb = t;
  }
  const long long total = (long long)n * m;
  life_unpack<<<(int)((total + block - 1) / block), block, 0, stream>>>(n, m, W, pa, out);
  cudaFreeAsync(pa, stream);
  cudaFreeAsync(pb, stream);
}

// strategy: shared_network — 64x16 output tile plus halo staged in shared memory; per pixel, each of the 3 columns is sorted with a 3-element network and the median is med3(max of column minima, median of column medians, min of column maxima) — branch-free min/max only
#include <cuda_runtime.h>

#define TX 64
#define TYT 16  // tile rows
#define THX 64
#define THY 4   // each thread computes TYT/THY rows

__device__ __forceinline__ void sort3(unsigned& a, unsigned& b, unsigned& c) {
  unsigned lo = min(a, b), hi = max(a, b);
  a = min(lo, c);          // min
  unsigned t = max(lo, c);
  b = min(hi, t);          // median
  c = max(hi, t);          // max
}

__device__ __forceinline__ unsigned med3(unsigned a, unsigned b, unsigned c) {
  return max(min(a, b), min(max(a, b), c));
}

__global__ void __launch_bounds__(THX * THY) median_shared_kernel(int h, int w, const unsigned char* __restrict__ in,
                                                                  unsigned char* __restrict__ out) {
  __shared__ unsigned char s[TYT + 2][TX + 2];
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TYT;
  const int tid = threadIdx.y * THX + threadIdx.x;
  for (int e = tid; e < (TYT + 2) * (TX + 2); e += THX * THY) {
    int r = e / (TX + 2), c = e % (TX + 2);
    int gy = min(max(y0 - 1 + r, 0), h - 1);
    int gx = min(max(x0 - 1 + c, 0), w - 1);
    s[r][c] = in[(long long)gy * w + gx];
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (x >= w) return;
  const int c = threadIdx.x + 1;
#pragma unroll
  for (int p = 0; p < TYT / THY; ++p) {
    int ly = threadIdx.y + p * THY;
    int y = y0 + ly;
    if (y < h) {
      int r = ly + 1;
      unsigned a0 = s[r - 1][c - 1], a1 = s[r][c - 1], a2 = s[r + 1][c - 1];
      unsigned b0 = s[r - 1][c], b1 = s[r][c], b2 = s[r + 1][c];
      unsigned c0 = s[r - 1][c + 1], c1 = s[r][c + 1], c2 = s[r + 1][c + 1];
      sort3(a0, a1, a2);
      sort3(b0, b1, b2);
      sort3(c0, c1, c2);
      unsigned lo = max(max(a0, b0), c0);
      unsigned md = med3(a1, b1, c1);
      unsigned hi = min(min(a2, b2), c2);
      out[(long long)y * w + x] = (unsigned char)med3(lo, md, hi);
    }
  }
}

extern "C" void median3x3_u8(int h, int w, const unsigned char* in, unsigned char* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(THX, THY);
  dim3 grid((w + TX - 1) / TX, (h + TYT - 1) / TYT);
  median_shared_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

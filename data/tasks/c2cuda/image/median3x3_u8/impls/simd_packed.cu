// strategy: simd_packed — each thread owns 4 adjacent pixels packed in a 32-bit word and marches down a 16-row strip; the 3x3 median of all 4 pixels is computed at once with per-byte SIMD min/max (__vminu4/__vmaxu4) on packed left/centre/right words
#include <cuda_runtime.h>
#include <stdint.h>

#define STRIP 16
#define BLOCK 128

__device__ __forceinline__ void sort3v(unsigned& a, unsigned& b, unsigned& c) {
  unsigned lo = __vminu4(a, b), hi = __vmaxu4(a, b);
  a = __vminu4(lo, c);
  unsigned t = __vmaxu4(lo, c);
  b = __vminu4(hi, t);
  c = __vmaxu4(hi, t);
}

__device__ __forceinline__ unsigned med3v(unsigned a, unsigned b, unsigned c) {
  return __vmaxu4(__vminu4(a, b), __vminu4(__vmaxu4(a, b), c));
}

// Packed words of one image row for the 4 pixels x0..x0+3:
//   L = columns x0-1 .. x0+2, C = x0 .. x0+3, R = x0+1 .. x0+4 (clamped to the image; byte k = pixel x0+k)
template <bool FAST>
__device__ __forceinline__ void row_words(const unsigned char* __restrict__ in, int h, int w, int row, int wc,
                                          unsigned& L, unsigned& C, unsigned& R) {
  row = min(max(row, 0), h - 1);
  const int x0 = wc * 4;
  if (FAST) {  // w % 4 == 0 and 4-byte aligned: whole-word loads
    const uint32_t* rw = reinterpret_cast<const uint32_t*>(in + (long long)row * w);
    C = __ldg(rw + wc);
    unsigned A = (x0 > 0) ? __ldg(rw + wc - 1) : (C << 24);      // only byte 3 is used
    unsigned B = (x0 + 4 < w) ? __ldg(rw + wc + 1) : (C >> 24);  // only byte 0 is used
    L = __byte_perm(A, C, 0x6543);
    R = __byte_perm(C, B, 0x4321);
  } else {
    const unsigned char* rp = in + (long long)row * w;
    unsigned b[6];
#pragma unroll
    for (int k = 0; k < 6; ++k) b[k] = __ldg(rp + min(max(x0 - 1 + k, 0), w - 1));
    L = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24);
    C = b[1] | (b[2] << 8) | (b[3] << 16) | (b[4] << 24);
    R = b[2] | (b[3] << 8) | (b[4] << 16) | (b[5] << 24);
  }
}

template <bool FAST>
__global__ void __launch_bounds__(BLOCK) median_simd_kernel(int h, int w, const unsigned char* __restrict__ in,
                                                            unsigned char* __restrict__ out) {
  const int nwc = (w + 3) / 4;
  const int wc = blockIdx.x * BLOCK + threadIdx.x;
  if (wc >= nwc) return;  // no cross-thread cooperation, early exit is safe
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min(y0 + STRIP, h);
  unsigned L0, C0, R0, L1, C1, R1, L2, C2, R2;
  row_words<FAST>(in, h, w, y0 - 1, wc, L0, C0, R0);
  row_words<FAST>(in, h, w, y0, wc, L1, C1, R1);
  for (int y = y0; y < y1; ++y) {
    row_words<FAST>(in, h, w, y + 1, wc, L2, C2, R2);
    // sort each of the three columns (left, centre, right) vertically, byte-wise
    unsigned la = L0, lb = L1, lc = L2;
    unsigned ca = C0, cb = C1, cc = C2;
    unsigned ra = R0, rb = R1, rc = R2;
    sort3v(la, lb, lc);
    sort3v(ca, cb, cc);
    sort3v(ra, rb, rc);
    unsigned lo = __vmaxu4(__vmaxu4(la, ca), ra);  // largest of the column minima
    unsigned md = med3v(lb, cb, rb);               // median of the column medians
    unsigned hi = __vminu4(__vminu4(lc, cc), rc);  // smallest of the column maxima
    unsigned res = med3v(lo, md, hi);
    if (FAST) {
      reinterpret_cast<uint32_t*>(out + (long long)y * w)[wc] = res;
    } else {
      unsigned char* op = out + (long long)y * w;
      const int x0 = wc * 4;
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (x0 + k < w) op[x0 + k] = (unsigned char)(res >> (8 * k));
    }
    L0 = L1; C0 = C1; R0 = R1;
    L1 = L2; C1 = C2; R1 = R2;
  }
}

extern "C" void median3x3_u8(int h, int w, const unsigned char* in, unsigned char* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  const int nwc = (w + 3) / 4;
  dim3 grid((nwc + BLOCK - 1) / BLOCK, (h + STRIP - 1) / STRIP);
  bool fast = (w % 4 == 0) && ((uintptr_t)in % 4 == 0) && ((uintptr_t)out % 4 == 0);
  if (fast) median_simd_kernel<true><<<grid, BLOCK, 0, stream>>>(h, w, in, out);
  else median_simd_kernel<false><<<grid, BLOCK, 0, stream>>>(h, w, in, out);
}

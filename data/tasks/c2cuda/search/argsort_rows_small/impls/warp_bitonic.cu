// strategy: warp_bitonic — one warp per row, the row held in registers (one or two (value, column) pairs per lane, padded to 32 or 64 with +inf); a full bitonic sorting network runs on the registers, partners exchanged with __shfl_xor_sync and the distance-32 step done inside each lane; (value, column) order makes the result stable
#include <cuda_runtime.h>
#include <math_constants.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ bool before(float ka, int ca, float kb, int cb) {
  return ka < kb || (ka == kb && ca < cb);
}

template <int H>
__global__ void __launch_bounds__(kThreads)
argsort_warp_bitonic(int rows, int w, const float* __restrict__ x, int* __restrict__ out) {
  constexpr int P = 32 * H;
  const int lane = threadIdx.x & 31;
  const long long warps_total = (long long)gridDim.x * (kThreads / 32);
  for (long long r = (long long)blockIdx.x * (kThreads / 32) + (threadIdx.x >> 5); r < rows; r += warps_total) {
    const float* row = x + r * w;
    float k[H];
    int c[H];
#pragma unroll
    for (int h = 0; h < H; ++h) {
      const int p = lane + 32 * h;
      c[h] = p;  // padding slots get columns >= w, after every real element
      k[h] = p < w ? __ldcs(row + p) : CUDART_INF_F;
    }
#pragma unroll
    for (int size = 2; size <= P; size <<= 1) {
#pragma unroll
      for (int s = size >> 1; s > 0; s >>= 1) {
        if (s == 32) {
          // only in the final 64-wide merge, which is ascending everywhere: in-lane exchange
          if (H == 2 && before(k[H - 1], c[H - 1], k[0], c[0])) {
            const float tk = k[0];
            const int tc = c[0];
            k[0] = k[H - 1];
            c[0] = c[H - 1];
            k[H - 1] = tk;
            c[H - 1] = tc;
          }
        } else {
#pragma unroll
          for (int h = 0; h < H; ++h) {
            const int p = lane + 32 * h;
            const float ok = __shfl_xor_sync(0xffffffffu, k[h], s);
            const int oc = __shfl_xor_sync(0xffffffffu, c[h], s);
            const bool lower = (p & s) == 0;
            const bool asc = (p & size) == 0;
            const bool other_first = before(ok, oc, k[h], c[h]);
            // the lower slot of an ascending pair (and the upper of a descending one) keeps the min
            if (lower == asc ? other_first : !other_first) {
              k[h] = ok;
              c[h] = oc;
            }
          }
        }
      }
    }
    int* o = out + r * w;
#pragma unroll
    for (int h = 0; h < H; ++h) {
      const int p = lane + 32 * h;
      if (p < w) __stcs(o + p, c[h]);
    }
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void argsort_rows_small(int rows, int w, const float* x, int* out, cudaStream_t stream) {
  if (rows <= 0 || w <= 0) return;
  const int rows_per_block = kThreads / 32;
  long long blocks = ((long long)rows + rows_per_block - 1) / rows_per_block;
  const long long cap = 16LL * sm_count();
  if (blocks > cap) blocks = cap;
  if (w <= 32)
    argsort_warp_bitonic<1><<<(unsigned)blocks, kThreads, 0, stream>>>(rows, w, x, out);
  else
    argsort_warp_bitonic<2><<<(unsigned)blocks, kThreads, 0, stream>>>(rows, w, x, out);
}

// strategy: smem_x_tiled — a block owns 32 rows (4 per warp) and walks k in 1 KiB tiles: the tile of every batch vector (up to 8 per pass) is staged once in shared memory and reused by all 32 rows; int4 A loads, __dp4a, 4x8 register-blocked accumulators
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowsPerWarp = 4;
constexpr int kRowsPerBlock = kWarps * kRowsPerWarp;
constexpr int kTile = 1024;  // bytes of k per tile
constexpr int kNB = 8;       // batch vectors per pass

template <bool VEC>
__global__ void __launch_bounds__(kThreads)
gemv_i8_smem_kernel(int rows, int k, int batch, const signed char* __restrict__ a,
                    const signed char* __restrict__ x, int* __restrict__ y) {
  __shared__ int4 xs4[kNB * kTile / 16];
  signed char* xs = reinterpret_cast<signed char*>(xs4);
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const long long row0 = (long long)blockIdx.x * kRowsPerBlock + warp * kRowsPerWarp;

  for (int b0 = 0; b0 < batch; b0 += kNB) {
    const int nb = min(kNB, batch - b0);
    int acc[kRowsPerWarp][kNB];
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i)
#pragma unroll
      for (int j = 0; j < kNB; ++j) acc[i][j] = 0;

    for (int t0 = 0; t0 < k; t0 += kTile) {
      const int tl = min(kTile, k - t0);
      __syncthreads();  // previous tile fully consumed
      if (VEC) {
        const int n16 = tl >> 4;  // k % 16 == 0, so tl % 16 == 0
        for (int idx = tid; idx < nb * (kTile / 16); idx += kThreads) {
          const int j = idx / (kTile / 16), c = idx % (kTile / 16);
          int4 v = make_int4(0, 0, 0, 0);
          if (c < n16) v = __ldg(reinterpret_cast<const int4*>(x + (size_t)(b0 + j) * k + t0) + c);
          xs4[idx] = v;
        }
      } else {
        for (int idx = tid; idx < nb * kTile; idx += kThreads) {
          const int j = idx / kTile, c = idx % kTile;
          xs[idx] = c < tl ? __ldg(x + (size_t)(b0 + j) * k + t0 + c) : (signed char)0;
        }
      }
      __syncthreads();

#pragma unroll
      for (int i = 0; i < kRowsPerWarp; ++i) {
        const long long r = row0 + i;
        if (r >= rows) break;  // warp-uniform
        const signed char* ar = a + (size_t)r * k + t0;
        if (VEC) {
          const int n16 = tl >> 4;
          for (int c = lane; c < n16; c += 32) {
            const int4 av = __ldg(reinterpret_cast<const int4*>(ar) + c);
#pragma unroll
            for (int j = 0; j < kNB; ++j) {
              if (j < nb) {
                const int4 xv = xs4[j * (kTile / 16) + c];
                int s = acc[i][j];
                s = __dp4a(av.x, xv.x, s);
                s = __dp4a(av.y, xv.y, s);
                s = __dp4a(av.z, xv.z, s);
                s = __dp4a(av.w, xv.w, s);
                acc[i][j] = s;
              }
            }
          }
        } else {
          for (int c = lane; c < tl; c += 32) {
            const int av = (int)__ldg(ar + c);
#pragma unroll
            for (int j = 0; j < kNB; ++j)
              if (j < nb) acc[i][j] += av * (int)xs[j * kTile + c];
          }
        }
      }
    }

#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
      const long long r = row0 + i;
#pragma unroll
      for (int j = 0; j < kNB; ++j) {
        int s = acc[i][j];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == 0 && j < nb && r < rows) y[(size_t)(b0 + j) * rows + r] = s;
      }
    }
  }
}

}  // namespace

extern "C" void gemv_i8_batched(int rows, int k, int batch, const signed char* a, const signed char* x, int* y,
                                cudaStream_t stream) {
  if (rows <= 0 || batch <= 0) return;
  const unsigned int blocks = (unsigned int)((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  if ((k & 15) == 0)
    gemv_i8_smem_kernel<true><<<blocks, kThreads, 0, stream>>>(rows, k, batch, a, x, y);
  else
    gemv_i8_smem_kernel<false><<<blocks, kThreads, 0, stream>>>(rows, k, batch, a, x, y);
}

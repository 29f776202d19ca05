// strategy: warp_dp4a — one warp per row, 128-bit loads of A and x (when k % 16 == 0), __dp4a 4-way int8 dot products, up to 8 batch vectors per pass kept in registers so each A byte is fetched once per 8 outputs, shuffle reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kNB = 8;

template <bool VEC>
__global__ void __launch_bounds__(kThreads)
gemv_i8_warp_kernel(int rows, int k, int batch, const signed char* __restrict__ a,
                    const signed char* __restrict__ x, int* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const signed char* ar = a + (size_t)r * k;
    for (int b0 = 0; b0 < batch; b0 += kNB) {
      const int nb = min(kNB, batch - b0);
      int acc[kNB];
#pragma unroll
      for (int j = 0; j < kNB; ++j) acc[j] = 0;
      if (VEC) {
        const int n16 = k >> 4;
        const int4* a16 = reinterpret_cast<const int4*>(ar);
        for (int i = lane; i < n16; i += 32) {
          const int4 av = __ldg(a16 + i);
#pragma unroll
          for (int j = 0; j < kNB; ++j) {
            if (j < nb) {
              const int4 xv = __ldg(reinterpret_cast<const int4*>(x + (size_t)(b0 + j) * k) + i);
              int s = acc[j];
              s = __dp4a(av.x, xv.x, s);
              s = __dp4a(av.y, xv.y, s);
              s = __dp4a(av.z, xv.z, s);
              s = __dp4a(av.w, xv.w, s);
              acc[j] = s;
            }
          }
        }
      } else {
        for (int c = lane; c < k; c += 32) {
          const int av = (int)__ldg(ar + c);
#pragma unroll
          for (int j = 0; j < kNB; ++j)
            if (j < nb) acc[j] += av * (int)__ldg(x + (size_t)(b0 + j) * k + c);
        }
      }
#pragma unroll
      for (int j = 0; j < kNB; ++j) {
        int s = acc[j];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == 0 && j < nb) y[(size_t)(b0 + j) * rows + r] = s;
      }
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

extern "C" void gemv_i8_batched(int rows, int k, int batch, const signed char* a, const signed char* x, int* y,
                                cudaStream_t stream) {
  if (rows <= 0 || batch <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)rows + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  if ((k & 15) == 0)
    gemv_i8_warp_kernel<true><<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, k, batch, a, x, y);
  else
    gemv_i8_warp_kernel<false><<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, k, batch, a, x, y);
}

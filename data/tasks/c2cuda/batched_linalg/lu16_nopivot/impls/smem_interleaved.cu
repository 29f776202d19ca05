// strategy: smem_interleaved — a block stages 32 matrices into shared memory with coalesced float4 loads, stored element-major (element e of matrix t at e*33+t, conflict-free), then one thread per matrix eliminates in shared memory and the tile is written back coalesced
#include <cuda_runtime.h>

namespace {

constexpr int kMats = 32;     // matrices (and threads) per block
constexpr int kStride = 33;   // padded element stride in shared memory

__global__ void __launch_bounds__(kMats) lu16_smem_kernel(int batch, const float* __restrict__ A, float* __restrict__ LU) {
  __shared__ float s[256 * kStride];
  const int t = threadIdx.x;
  const long long first = (long long)blockIdx.x * kMats;
  const int here = (int)min((long long)kMats, (long long)batch - first);
  const float4* src = reinterpret_cast<const float4*>(A + first * 256);
  // staging: the block's matrices are one contiguous run of here*256 floats
  for (int q = t; q < here * 64; q += kMats) {
    const float4 x = __ldcs(src + q);
    const int m = q >> 6, e = (q & 63) * 4;
    s[(e + 0) * kStride + m] = x.x;
    s[(e + 1) * kStride + m] = x.y;
    s[(e + 2) * kStride + m] = x.z;
    s[(e + 3) * kStride + m] = x.w;
  }
  __syncthreads();
  if (t < here) {
    float* w = s + t;
#pragma unroll
    for (int i = 0; i < 16; ++i) w[(i * 17) * kStride] += 16.0f;
    for (int k = 0; k < 16; ++k) {
      const float p = w[(k * 17) * kStride];
      for (int i = k + 1; i < 16; ++i) {
        const float l = w[(i * 16 + k) * kStride] / p;
        w[(i * 16 + k) * kStride] = l;
#pragma unroll 4
        for (int j = k + 1; j < 16; ++j) w[(i * 16 + j) * kStride] -= l * w[(k * 16 + j) * kStride];
      }
    }
  }
  __syncthreads();
  float4* dst = reinterpret_cast<float4*>(LU + first * 256);
  for (int q = t; q < here * 64; q += kMats) {
    const int m = q >> 6, e = (q & 63) * 4;
    __stcs(dst + q, make_float4(s[(e + 0) * kStride + m], s[(e + 1) * kStride + m], s[(e + 2) * kStride + m],
                                s[(e + 3) * kStride + m]));
  }
}

}  // namespace

extern "C" void lu16_nopivot(int batch, const float* A, float* LU, cudaStream_t stream) {
  if (batch <= 0) return;
  const long long blocks = ((long long)batch + kMats - 1) / kMats;
  lu16_smem_kernel<<<(unsigned int)blocks, kMats, 0, stream>>>(batch, A, LU);
}

// strategy: givens_smem — a block stages 64 matrices into shared memory with coalesced float4 loads in an element-major padded layout (conflict-free per-thread access), then one thread per matrix annihilates the subdiagonal column by column with Givens rotations (each leaves a non-negative pivot, so no sign fix is needed)
#include <cuda_runtime.h>

namespace {

constexpr int kMats = 64;
constexpr int kLd = kMats + 1;  // element e of matrix t lives at e*kLd + t

__global__ void __launch_bounds__(kMats) qr_givens_kernel(int batch, const float* __restrict__ A, float* __restrict__ R) {
  __shared__ float s[128 * kLd];
  const int t = threadIdx.x;
  const long long first = (long long)blockIdx.x * kMats;
  const int here = (int)min((long long)kMats, (long long)batch - first);
  const float4* src = reinterpret_cast<const float4*>(A + first * 128);
  for (int q = t; q < here * 32; q += kMats) {
    const float4 v = __ldcs(src + q);
    const int m = q >> 5, e = (q & 31) * 4;
    s[(e + 0) * kLd + m] = v.x;
    s[(e + 1) * kLd + m] = v.y;
    s[(e + 2) * kLd + m] = v.z;
    s[(e + 3) * kLd + m] = v.w;
  }
  __syncthreads();
  if (t < here) {
    float* w = s + t;
#define W(i, j) w[((i) * 8 + (j)) * kLd]
    for (int j = 0; j < 8; ++j) {
      for (int i = j + 1; i < 16; ++i) {
        const float x = W(j, j), y = W(i, j);
        if (y == 0.0f) continue;
        const float r = sqrtf(x * x + y * y);
        const float c = x / r, sn = y / r;
        W(j, j) = r;
        W(i, j) = 0.0f;
        for (int col = j + 1; col < 8; ++col) {
          const float u = W(j, col), v = W(i, col);
          W(j, col) = c * u + sn * v;
          W(i, col) = c * v - sn * u;
        }
      }
    }
#undef W
  }
  __syncthreads();
  float4* dst = reinterpret_cast<float4*>(R + first * 64);
  for (int q = t; q < here * 16; q += kMats) {
    const int m = q >> 4, e = (q & 15) * 4, i = e >> 3, j = e & 7;
    float o[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) o[u] = (j + u >= i) ? s[(i * 8 + j + u) * kLd + m] : 0.0f;
    __stcs(dst + q, make_float4(o[0], o[1], o[2], o[3]));
  }
}

}  // namespace

extern "C" void qr_r_16x8(int batch, const float* A, float* R, cudaStream_t stream) {
  if (batch <= 0) return;
  const long long blocks = ((long long)batch + kMats - 1) / kMats;
  qr_givens_kernel<<<(unsigned int)blocks, kMats, 0, stream>>>(batch, A, R);
}

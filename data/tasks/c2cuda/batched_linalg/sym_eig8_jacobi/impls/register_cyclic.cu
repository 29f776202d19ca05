// strategy: register_cyclic — one thread per matrix keeps only the 36-entry upper triangle in registers (compile-time indices from fully unrolled pair loops), one-sided symmetric rotation updates with the stable tan formula, float4 loads, a register sorting network for the output
#include <cuda_runtime.h>

namespace {

constexpr int kSweeps = 8;

__host__ __device__ constexpr int tri(int i, int j) {  // packed upper-triangle slot of (i, j), any order
  return i <= j ? i * 8 - i * (i - 1) / 2 + (j - i) : j * 8 - j * (j - 1) / 2 + (i - j);
}

__global__ void __launch_bounds__(128) eig8_reg_kernel(int batch, const float4* __restrict__ A, float4* __restrict__ eig) {
  const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  float m[64];
#pragma unroll
  for (int q = 0; q < 16; ++q) {
    const float4 v = __ldg(A + b * 16 + q);
    m[4 * q] = v.x;
    m[4 * q + 1] = v.y;
    m[4 * q + 2] = v.z;
    m[4 * q + 3] = v.w;
  }
  float u[36];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = i; j < 8; ++j) u[tri(i, j)] = 0.5f * (m[i * 8 + j] + m[j * 8 + i]);

  for (int sweep = 0; sweep < kSweeps; ++sweep) {
#pragma unroll
    for (int p = 0; p < 7; ++p)
#pragma unroll
      for (int q = p + 1; q < 8; ++q) {
        const float apq = u[tri(p, q)], app = u[tri(p, p)], aqq = u[tri(q, q)];
        const bool live = apq != 0.0f;
        const float theta = (aqq - app) / (2.0f * (live ? apq : 1.0f));
        float t = (theta >= 0.0f ? 1.0f : -1.0f) / (fabsf(theta) + sqrtf(theta * theta + 1.0f));
        t = live ? t : 0.0f;
        const float c = rsqrtf(t * t + 1.0f), sn = t * c;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
          if (r == p || r == q) continue;
          const float rp = u[tri(r, p)], rq = u[tri(r, q)];
          u[tri(r, p)] = c * rp - sn * rq;
          u[tri(r, q)] = sn * rp + c * rq;
        }
        u[tri(p, p)] = app - t * apq;
        u[tri(q, q)] = aqq + t * apq;
        u[tri(p, q)] = 0.0f;
      }
  }
  float d[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) d[i] = u[tri(i, i)];
#pragma unroll
  for (int round = 0; round < 8; ++round)  // odd-even transposition network
#pragma unroll
    for (int i = round & 1; i + 1 < 8; i += 2) {
      const float lo = fminf(d[i], d[i + 1]), hi = fmaxf(d[i], d[i + 1]);
      d[i] = lo;
      d[i + 1] = hi;
    }
  __stcs(eig + 2 * b, make_float4(d[0], d[1], d[2], d[3]));
  __stcs(eig + 2 * b + 1, make_float4(d[4], d[5], d[6], d[7]));
}

}  // namespace

extern "C" void sym_eig8_jacobi(int batch, const float* A, float* eig, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 128;
  const long long blocks = ((long long)batch + threads - 1) / threads;
  eig8_reg_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(batch, reinterpret_cast<const float4*>(A),
                                                                reinterpret_cast<float4*>(eig));
}

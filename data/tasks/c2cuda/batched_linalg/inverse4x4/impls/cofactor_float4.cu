// strategy: cofactor_float4 — one thread per matrix, four 16-byte vector loads and stores, closed-form adjugate from the twelve 2x2 minors of the row pairs (0,1) and (2,3) (Laplace expansion), a single reciprocal of the determinant, all in registers
#include <cuda_runtime.h>

namespace {

__global__ void __launch_bounds__(256) inverse4x4_cofactor_kernel(int batch, const float4* __restrict__ A, float4* __restrict__ Minv) {
  const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float4 r0 = __ldcs(A + 4 * b + 0);
  const float4 r1 = __ldcs(A + 4 * b + 1);
  const float4 r2 = __ldcs(A + 4 * b + 2);
  const float4 r3 = __ldcs(A + 4 * b + 3);
  const float a00 = r0.x + 5.0f, a01 = r0.y, a02 = r0.z, a03 = r0.w;
  const float a10 = r1.x, a11 = r1.y + 5.0f, a12 = r1.z, a13 = r1.w;
  const float a20 = r2.x, a21 = r2.y, a22 = r2.z + 5.0f, a23 = r2.w;
  const float a30 = r3.x, a31 = r3.y, a32 = r3.z, a33 = r3.w + 5.0f;

  // minors of rows 0,1 (columns p<q) and of rows 2,3
  const float s01 = a00 * a11 - a10 * a01, s02 = a00 * a12 - a10 * a02, s03 = a00 * a13 - a10 * a03;
  const float s12 = a01 * a12 - a11 * a02, s13 = a01 * a13 - a11 * a03, s23 = a02 * a13 - a12 * a03;
  const float c01 = a20 * a31 - a30 * a21, c02 = a20 * a32 - a30 * a22, c03 = a20 * a33 - a30 * a23;
  const float c12 = a21 * a32 - a31 * a22, c13 = a21 * a33 - a31 * a23, c23 = a22 * a33 - a32 * a23;

  const float det = s01 * c23 - s02 * c13 + s03 * c12 + s12 * c03 - s13 * c02 + s23 * c01;
  const float r = 1.0f / det;

  float4 o0, o1, o2, o3;
  o0.x = (a11 * c23 - a12 * c13 + a13 * c12) * r;
  o0.y = (-a01 * c23 + a02 * c13 - a03 * c12) * r;
  o0.z = (a31 * s23 - a32 * s13 + a33 * s12) * r;
  o0.w = (-a21 * s23 + a22 * s13 - a23 * s12) * r;
  o1.x = (-a10 * c23 + a12 * c03 - a13 * c02) * r;
  o1.y = (a00 * c23 - a02 * c03 + a03 * c02) * r;
  o1.z = (-a30 * s23 + a32 * s03 - a33 * s02) * r;
  o1.w = (a20 * s23 - a22 * s03 + a23 * s02) * r;
  o2.x = (a10 * c13 - a11 * c03 + a13 * c01) * r;
  o2.y = (-a00 * c13 + a01 * c03 - a03 * c01) * r;
  o2.z = (a30 * s13 - a31 * s03 + a33 * s01) * r;
  o2.w = (-a20 * s13 + a21 * s03 - a23 * s01) * r;
  o3.x = (-a10 * c12 + a11 * c02 - a12 * c01) * r;
  o3.y = (a00 * c12 - a01 * c02 + a02 * c01) * r;
  o3.z = (-a30 * s12 + a31 * s02 - a32 * s01) * r;
  o3.w = (a20 * s12 - a21 * s02 + a22 * s01) * r;
  __stcs(Minv + 4 * b + 0, o0);
  __stcs(Minv + 4 * b + 1, o1);
  __stcs(Minv + 4 * b + 2, o2);
  __stcs(Minv + 4 * b + 3, o3);
}

}  // namespace

extern "C" void inverse4x4(int batch, const float* A, float* Minv, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 256;
  const long long blocks = ((long long)batch + threads - 1) / threads;
  inverse4x4_cofactor_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(batch, reinterpret_cast<const float4*>(A),
                                                                          reinterpret_cast<float4*>(Minv));
}

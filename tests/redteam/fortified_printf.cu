// redteam: issue 18 item 7 — an honest launcher that prints and copies strings from host code; a
// host compiler that fortifies by default (Ubuntu's gcc) would import __printf_chk/__memcpy_chk,
// which the allowlist judges as printf/memcpy, and the build undefines _FORTIFY_SOURCE: the same
// verdict on every machine, not link_error (the forced-fortify build: CandidateBuild.* unit tests).
// expect: pending_gpu
// runs-on: cpu (the link check and the confined host-side run)
#undef _FORTIFY_SOURCE
#define _FORTIFY_SOURCE 2
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  char tag[64], copy[64];
  size_t len = static_cast<size_t>(n) % 32 + 1;
  std::memset(tag, 's', len);
  tag[len] = 0;
  std::memcpy(copy, tag, std::strlen(tag) + 1);
  if (n < 0) std::printf("saxpy %s %d\n", copy, n);  // never at run time (issue 18 item 6: inherited stdout)
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}

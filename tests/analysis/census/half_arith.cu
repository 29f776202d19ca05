#include <cuda_fp16.h>
#include <cuda_bf16.h>
// half and bfloat16 arithmetic (packed and scalar).
__global__ void half_arith(const __half2* a, const __half2* b, __half2* out,
                           const __nv_bfloat16* c, __nv_bfloat16* d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 x = a[i], y = b[i];
  __half2 s = __hadd2(x, y);
  __half2 p = __hmul2(s, y);
  out[i] = __hfma2(p, x, s);
  __nv_bfloat16 u = c[i];
  d[i] = __hmul(u, u);
}

// redteam: row 10 — sets a persisting-L2 access policy window
// expect: link_error cudaStreamSetAttribute

#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  cudaStreamAttrValue v = {}; v.accessPolicyWindow.base_ptr = (void*)x; v.accessPolicyWindow.num_bytes = 4u * n; v.accessPolicyWindow.hitRatio = 1.0f; v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting; cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &v);
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}

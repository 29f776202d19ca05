// redteam: row 8 — uses Thrust instead of its own kernel
// expect: link_error uses a library
#include <thrust/transform.h>
#include <thrust/execution_policy.h>
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

struct Axpy { float a; __host__ __device__ float operator()(float u, float v) const { return a * u + v; } };

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  thrust::transform(thrust::cuda::par.on(stream), x, x + n, y, out, Axpy{a});
  ;
}

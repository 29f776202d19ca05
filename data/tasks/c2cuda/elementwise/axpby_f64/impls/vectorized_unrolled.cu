// strategy: vectorized_unrolled — 128-bit double2 loads, two vectors (4 doubles) in flight per thread per iteration, scalar tail
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ double2 axpby2(double alpha, double beta, double2 xv, double2 yv) {
  double2 r;
  r.x = fma(alpha, xv.x, beta * yv.x);
  r.y = fma(alpha, xv.y, beta * yv.y);
  return r;
}

__global__ void axpby_vec_kernel(int n, double alpha, double beta, const double* __restrict__ x,
                                 const double* __restrict__ y, double* __restrict__ out) {
  const double2* x2 = reinterpret_cast<const double2*>(x);
  const double2* y2 = reinterpret_cast<const double2*>(y);
  double2* o2 = reinterpret_cast<double2*>(out);
  const long long nvec = n / 2;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  long long v = tid;
  // two independent vectors per iteration to raise memory-level parallelism
  for (; v + stride < nvec; v += 2 * stride) {
    double2 xa = x2[v], ya = y2[v];
    double2 xb = x2[v + stride], yb = y2[v + stride];
    o2[v] = axpby2(alpha, beta, xa, ya);
    o2[v + stride] = axpby2(alpha, beta, xb, yb);
  }
  if (v < nvec) o2[v] = axpby2(alpha, beta, x2[v], y2[v]);
  if (tid == 0 && (n & 1)) {
    long long i = n - 1;
    out[i] = fma(alpha, x[i], beta * y[i]);
  }
}

__global__ void axpby_scalar_kernel(int n, double alpha, double beta, const double* __restrict__ x,
                                    const double* __restrict__ y, double* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fma(alpha, x[i], beta * y[i]);
}

extern "C" void axpby_f64(int n, double alpha, double beta, const double* x, const double* y, double* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long cap = (long long)sms * 8;
  bool aligned = (((uintptr_t)x | (uintptr_t)y | (uintptr_t)out) & 15) == 0;
  if (aligned) {
    long long work = (long long)n / 2 > 0 ? (long long)n / 2 : 1;  // n == 1 still needs thread 0 for the tail
    long long need = (work + threads - 1) / threads;
    int blocks = (int)(need < cap ? need : cap);
    axpby_vec_kernel<<<blocks, threads, 0, stream>>>(n, alpha, beta, x, y, out);
  } else {
    long long need = ((long long)n + threads - 1) / threads;
    int blocks = (int)(need < cap ? need : cap);
    axpby_scalar_kernel<<<blocks, threads, 0, stream>>>(n, alpha, beta, x, y, out);
  }
}

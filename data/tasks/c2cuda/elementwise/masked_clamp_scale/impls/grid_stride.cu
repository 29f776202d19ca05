// strategy: grid_stride — coalesced grid-stride loop, branch-free select per element
#include <cuda_runtime.h>

__device__ __forceinline__ int mcs_one(int xv, unsigned char m, int scale, int lo, int hi) {
  int c = min(max(xv * scale, lo), hi);
  return m ? c : -xv;
}

__global__ void mcs_grid_stride_kernel(int n, int scale, int lo, int hi, const int* __restrict__ x,
                                       const unsigned char* __restrict__ mask, int* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = mcs_one(x[i], mask[i], scale, lo, hi);
}

extern "C" void masked_clamp_scale_i32(int n, int scale, int lo, int hi, const int* x,
                                       const unsigned char* mask, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  mcs_grid_stride_kernel<<<blocks, threads, 0, stream>>>(n, scale, lo, hi, x, mask, out);
}

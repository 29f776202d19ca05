// Several kernels (and a device function) in one file; each gets its own census.
__device__ __noinline__ float helper(float x) { return x * x + 1.0f; }

__global__ void scale_kernel(float* x, float s) {
  x[threadIdx.x] *= s;
}

__global__ void sync_kernel(float* x) {
  __shared__ float t[64];
  t[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = t[63 - threadIdx.x] + helper(t[threadIdx.x]);
}

template <typename T>
__global__ void dbl_kernel(T* x) {
  x[threadIdx.x] = x[threadIdx.x] * (T)2 + (T)1;
}
template __global__ void dbl_kernel<double>(double*);

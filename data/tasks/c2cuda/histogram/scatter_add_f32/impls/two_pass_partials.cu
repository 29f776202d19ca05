// strategy: two_pass_partials — pass 1: each block accumulates into shared memory and writes its m partial sums to a scratch row; pass 2: one thread per output sums the block rows (no global atomics, no memset); outputs too large for shared memory are split into m-slices, one grid slice per blockIdx.y
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSlice = 8 * 1024;  // outputs per shared-memory slice (32 KB)

// Block (bx, by) accumulates the elements of its grid-stride share whose index falls in
// slice by: [by*kSlice, by*kSlice + kSlice) ∩ [0, m), then stores the slice to partial row bx.
__global__ void __launch_bounds__(kThreads)
scatter_partial_kernel(int n, int m, const int* __restrict__ idx, const float* __restrict__ val,
                       float* __restrict__ partial) {
  __shared__ float sh[kSlice];
  const int lo = blockIdx.y * kSlice;
  const int width = min(kSlice, m - lo);
  for (int j = threadIdx.x; j < width; j += blockDim.x) sh[j] = 0.0f;
  __syncthreads();
  const int stride = gridDim.x * blockDim.x;
  for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x; base < n; base += 4LL * stride) {
    int j[4];
    float v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      long long i = base + (long long)k * stride;
      j[k] = -1;
      v[k] = 0.0f;
      if (i < n) {
        j[k] = __ldg(idx + i) - lo;
        v[k] = __ldg(val + i);
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if ((unsigned)j[k] < (unsigned)width) atomicAdd(&sh[j[k]], v[k]);
  }
  __syncthreads();
  float* row = partial + (size_t)blockIdx.x * m + lo;
  for (int j2 = threadIdx.x; j2 < width; j2 += blockDim.x) row[j2] = sh[j2];
}

__global__ void scatter_reduce_kernel(int nrows, int m, const float* __restrict__ partial,
                                      float* __restrict__ out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float s = 0.0f;
  for (int r = 0; r < nrows; ++r) s += partial[(size_t)r * m + j];
  out[j] = s;
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void scatter_add_f32(int n, int m, const int* idx, const float* val, float* out,
                                cudaStream_t stream) {
  if (m <= 0) return;
  if (n <= 0) {
    cudaMemsetAsync(out, 0, (size_t)m * sizeof(float), stream);
    return;
  }
  const int slices = (m + kSlice - 1) / kSlice;
  // about 8 resident blocks per SM in total; wide outputs get fewer element-blocks per slice,
  // and the scratch (rows x m floats) is kept under ~256 MB
  long long rows = (8LL * sm_count() + slices - 1) / slices;
  const long long need = ((long long)n + 4LL * kThreads - 1) / (4LL * kThreads);
  if (rows > need) rows = need;
  const long long max_rows = (256LL << 20) / (4LL * m);
  if (rows > max_rows) rows = max_rows;
  if (rows < 1) rows = 1;
  float* partial = nullptr;
  cudaMallocAsync((void**)&partial, (size_t)rows * m * sizeof(float), stream);
  dim3 grid((unsigned int)rows, (unsigned int)slices);
  scatter_partial_kernel<<<grid, kThreads, 0, stream>>>(n, m, idx, val, partial);
  scatter_reduce_kernel<<<(m + 255) / 256, 256, 0, stream>>>((int)rows, m, partial, out);
  cudaFreeAsync(partial, stream);
}

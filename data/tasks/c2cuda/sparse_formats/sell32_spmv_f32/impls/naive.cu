// strategy: naive (weak) — one thread per slice handles its 32 rows one after another (32x less parallelism, consecutive threads touch different slices so no load is coalesced)
#include <cuda_runtime.h>

__global__ void sell_naive_kernel(int rows, int nslices, const int* sliceptr, const int* colidx, const float* vals,
                                  const float* x, float* y) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nslices) return;
  for (int i = 0; i < 32; ++i) {
    const int r = 32 * s + i;
    if (r >= rows) break;
    float acc = 0.0f;
    for (int j = sliceptr[s]; j < sliceptr[s + 1]; ++j) {
      const long long k = 32LL * j + i;
      const int c = colidx[k];
      if (c >= 0) acc += vals[k] * x[c];
    }
    y[r] = acc;
  }
}

extern "C" void sell32_spmv_f32(int rows, int cols, int nslots, const int* sliceptr, const int* colidx,
                                const float* vals, const float* x, float* y, cudaStream_t stream) {
  (void)cols;
  (void)nslots;
  if (rows <= 0) return;
  const int nslices = (rows + 31) / 32;
  const int threads = 128;
  sell_naive_kernel<<<(nslices + threads - 1) / threads, threads, 0, stream>>>(rows, nslices, sliceptr, colidx, vals,
                                                                              x, y);
}

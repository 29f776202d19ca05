// strategy: thread_per_row — one thread per row walking the column-major slots (consecutive threads read consecutive addresses: fully coalesced), slot loop unrolled by 4 with independent accumulators for memory-level parallelism
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256)
spmv_ell_row_kernel(int rows, int width, const int* __restrict__ colidx, const float* __restrict__ vals,
                    const float* __restrict__ x, float* __restrict__ y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const size_t R = (size_t)rows;
  const int* cp = colidx + r;
  const float* vp = vals + r;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  int j = 0;
  for (; j + 4 <= width; j += 4) {
    const int c0 = __ldcs(cp + (j + 0) * R), c1 = __ldcs(cp + (j + 1) * R);
    const int c2 = __ldcs(cp + (j + 2) * R), c3 = __ldcs(cp + (j + 3) * R);
    const float v0 = __ldcs(vp + (j + 0) * R), v1 = __ldcs(vp + (j + 1) * R);
    const float v2 = __ldcs(vp + (j + 2) * R), v3 = __ldcs(vp + (j + 3) * R);
    if (c0 >= 0) s0 += v0 * __ldg(x + c0);
    if (c1 >= 0) s1 += v1 * __ldg(x + c1);
    if (c2 >= 0) s2 += v2 * __ldg(x + c2);
    if (c3 >= 0) s3 += v3 * __ldg(x + c3);
  }
  for (; j < width; ++j) {
    const int c = __ldcs(cp + j * R);
    const float v = __ldcs(vp + j * R);
    if (c >= 0) s0 += v * __ldg(x + c);
  }
  y[r] = (s0 + s1) + (s2 + s3);
}

extern "C" void spmv_ell_f32(int rows, int cols, int width, const int* colidx, const float* vals,
                             const float* x, float* y, cudaStream_t stream) {
  (void)cols;
  if (rows <= 0) return;
  const int threads = 256;
  spmv_ell_row_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, width, colidx, vals, x, y);
}

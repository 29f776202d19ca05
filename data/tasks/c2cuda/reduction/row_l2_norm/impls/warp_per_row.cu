// strategy: warp_per_row — one warp per row (grid-stride over rows), float4 loads when the row start is 16-byte aligned, FMA accumulation and a shuffle reduction
#include <cuda_runtime.h>
#include <cstdint>

__global__ void rownorm_warp_kernel(int rows, int cols, const float* __restrict__ a, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long warp_global = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = warp_global; r < rows; r += nwarps) {
    const float* row = a + r * (long long)cols;
    float s0 = 0.f, s1 = 0.f;
    int c0 = 0;
    if ((((uintptr_t)row) & 15) == 0) {
      const int nvec = cols >> 2;
      const float4* r4 = reinterpret_cast<const float4*>(row);
      for (int v = lane; v < nvec; v += 32) {
        float4 q = r4[v];
        s0 = fmaf(q.x, q.x, s0);
        s1 = fmaf(q.y, q.y, s1);
        s0 = fmaf(q.z, q.z, s0);
        s1 = fmaf(q.w, q.w, s1);
      }
      c0 = nvec << 2;
    }
    for (int c = c0 + lane; c < cols; c += 32) s0 = fmaf(row[c], row[c], s0);
    float s = s0 + s1;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) out[r] = sqrtf(s);
  }
}

extern "C" void row_l2_norm_f32(int rows, int cols, const float* a, float* out, cudaStream_t stream) {
  if (rows <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;  // 8 rows in flight per block
  const int rows_per_block = threads / 32;
  long long need = ((long long)rows + rows_per_block - 1) / rows_per_block;
  long long cap = (long long)sms * 16;
  int blocks = (int)(need < cap ? need : cap);
  rownorm_warp_kernel<<<blocks, threads, 0, stream>>>(rows, cols, a, out);
}

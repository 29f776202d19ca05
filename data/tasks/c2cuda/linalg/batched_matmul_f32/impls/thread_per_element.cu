// strategy: thread_per_element — flattened grid-stride over all batch*m*n outputs, one dot product per thread read through the read-only cache; consecutive threads write consecutive C entries and read consecutive B columns (coalesced), A rows are shared via L1
#include <cuda_runtime.h>

__global__ void bmm_elem_kernel(long long total, int m, int k, int n, const float* __restrict__ A,
                                const float* __restrict__ B, float* __restrict__ C) {
  const long long mn = (long long)m * n;
  for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
       idx += (long long)gridDim.x * blockDim.x) {
    const long long b = idx / mn;
    const int rem = (int)(idx - b * mn);
    const int i = rem / n, j = rem - i * n;
    const float* a = A + b * m * k + (long long)i * k;
    const float* bb = B + b * k * n + j;
    float s0 = 0.f, s1 = 0.f;
    int t = 0;
    for (; t + 1 < k; t += 2) {
      s0 = fmaf(__ldg(a + t), __ldg(bb + (long long)t * n), s0);
      s1 = fmaf(__ldg(a + t + 1), __ldg(bb + (long long)(t + 1) * n), s1);
    }
    if (t < k) s0 = fmaf(__ldg(a + t), __ldg(bb + (long long)t * n), s0);
    C[idx] = s0 + s1;
  }
}

extern "C" void batched_matmul_f32(int batch, int m, int k, int n, const float* A, const float* B, float* C,
                                   cudaStream_t stream) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  const long long total = (long long)batch * m * n;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = (total + threads - 1) / threads;
  long long cap = (long long)sms * 32;
  bmm_elem_kernel<<<(int)(need < cap ? need : cap), threads, 0, stream>>>(total, m, k, n, A, B, C);
}

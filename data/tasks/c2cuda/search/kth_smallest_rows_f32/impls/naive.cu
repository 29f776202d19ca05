// strategy: naive (weak) — one thread per row builds the answer's order-preserving 32-bit key bit by bit, re-counting the whole row for every bit (32 full passes, row-major so neighbouring threads read addresses n floats apart)
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float float_of(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key ^ 0x80000000u) : ~key);
}

__global__ void kth_naive_kernel(int batch, int n, int k, const float* x, float* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= batch) return;
  const float* row = x + (long long)r * n;
  // answer = smallest key K with #(key <= K) >= k; decide bits from the top
  unsigned ans = 0;
  for (int bit = 31; bit >= 0; --bit) {
    const unsigned t = ans | ((1u << bit) - 1u);  // this bit 0, all lower bits 1
    int c = 0;
    for (int i = 0; i < n; ++i) c += key_of(row[i]) <= t ? 1 : 0;
    if (c < k) ans |= 1u << bit;
  }
  out[r] = float_of(ans);
}

extern "C" void kth_smallest_rows_f32(int batch, int n, int k, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0) return;
  kth_naive_kernel<<<(batch + 63) / 64, 64, 0, stream>>>(batch, n, k, x, out);
}

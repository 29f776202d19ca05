// strategy: naive (weak) — a single thread walks the recurrence position by position (no parallelism at all; every step waits on the previous one's global loads)
#include <cuda_runtime.h>

__global__ void minplus_naive_kernel(int n, const int* w, long long* dp) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  long long s0 = 0, s1 = 0, s2 = 0, s3 = 0;  // dp[i-1..i-4]
  for (int i = 0; i < n; ++i) {
    long long best = s0 + w[4 * i];
    if (i >= 1) best = min(best, s1 + (long long)w[4 * i + 1]);
    if (i >= 2) best = min(best, s2 + (long long)w[4 * i + 2]);
    if (i >= 3) best = min(best, s3 + (long long)w[4 * i + 3]);
    dp[i] = best;
    s3 = s2;
    s2 = s1;
    s1 = s0;
    s0 = best;
  }
}

extern "C" void minplus_jumps(int n, const int* w, long long* dp, cudaStream_t stream) {
  if (n <= 0) return;
  minplus_naive_kernel<<<1, 32, 0, stream>>>(n, w, dp);
}

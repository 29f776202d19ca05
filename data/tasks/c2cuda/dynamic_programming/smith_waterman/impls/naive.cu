// strategy: naive (weak) — one kernel launch per anti-diagonal, one thread per cell reading its three neighbours back from global memory (n+m-1 launches, strided accesses)
#include <cuda_runtime.h>

__global__ void sw_naive_diag_kernel(int n, int m, int d, int match, int mismatch, int gap,
                                     const unsigned char* a, const unsigned char* b, int* H) {
  int ilo = d - (m - 1);
  if (ilo < 0) ilo = 0;
  int i = ilo + blockIdx.x * blockDim.x + threadIdx.x;
  int j = d - i;
  if (i >= n || j < 0) return;
  long long idx = (long long)i * m + j;
  int diag = (i > 0 && j > 0) ? H[idx - m - 1] : 0;
  int up = (i > 0) ? H[idx - m] : 0;
  int left = (j > 0) ? H[idx - 1] : 0;
  int v = diag + (a[i] == b[j] ? match : mismatch);
  v = max(v, up - gap);
  v = max(v, left - gap);
  H[idx] = max(v, 0);
}

extern "C" void smith_waterman(int n, int m, int match, int mismatch, int gap, const unsigned char* a,
                               const unsigned char* b, int* H, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const int threads = 256;
  for (int d = 0; d <= n + m - 2; ++d) {
    int ilo = d - (m - 1) > 0 ? d - (m - 1) : 0;
    int ihi = d < n - 1 ? d : n - 1;
    int cnt = ihi - ilo + 1;
    sw_naive_diag_kernel<<<(cnt + threads - 1) / threads, threads, 0, stream>>>(n, m, d, match, mismatch, gap, a,
                                                                                  b, H);
  }
}

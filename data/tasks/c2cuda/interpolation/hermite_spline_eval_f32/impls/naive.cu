// strategy: naive (weak) — one thread per query doing a full binary search over the knots in global memory through the ordinary load path, then re-reading six knots to rebuild both tangents on the fly
#include <cuda_runtime.h>

__device__ float naive_tangent(int n, const float* x, const float* y, int k) {
  int a = k > 0 ? k - 1 : 0;
  int b = k < n - 1 ? k + 1 : n - 1;
  float dx = x[b] - x[a];
  if (!(dx > 0.0f)) return 0.0f;
  return (y[b] - y[a]) / dx;
}

__global__ void hermite_naive_kernel(int n, int m, const float* x, const float* y, const float* q, float* out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float qc = fmaxf(q[j], x[0]);
  if (qc >= x[n - 1]) {
    out[j] = y[n - 1];
    return;
  }
  int lo = 1, hi = n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (x[mid] > qc) hi = mid; else lo = mid + 1;
  }
  int i = lo - 1;
  float h = x[i + 1] - x[i];
  float t = (qc - x[i]) / h;
  float t2 = t * t, t3 = t2 * t;
  float h00 = 2.0f * t3 - 3.0f * t2 + 1.0f;
  float h10 = t3 - 2.0f * t2 + t;
  float h01 = -2.0f * t3 + 3.0f * t2;
  float h11 = t3 - t2;
  out[j] = h00 * y[i] + h10 * h * naive_tangent(n, x, y, i) + h01 * y[i + 1] + h11 * h * naive_tangent(n, x, y, i + 1);
}

extern "C" void hermite_spline_eval_f32(int n, int m, const float* x, const float* y, const float* q, float* out,
                                        cudaStream_t stream) {
  if (m <= 0) return;
  const int threads = 256;
  hermite_naive_kernel<<<(m + threads - 1) / threads, threads, 0, stream>>>(n, m, x, y, q, out);
}

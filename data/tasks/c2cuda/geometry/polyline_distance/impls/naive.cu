// strategy: naive (weak) — one thread per point re-reads both endpoints of every segment from global memory and divides by the segment's squared length on every pair
#include <cuda_runtime.h>

__global__ void polydist_naive_kernel(int n, int nv, const float* p, const float* v, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = p[2 * i], y = p[2 * i + 1];
  float dx0 = x - v[0], dy0 = y - v[1];
  float best = dx0 * dx0 + dy0 * dy0;
  for (int k = 0; k + 1 < nv; ++k) {
    float ax = v[2 * k], ay = v[2 * k + 1];
    float ex = v[2 * k + 2] - ax, ey = v[2 * k + 3] - ay;
    float len2 = ex * ex + ey * ey;
    float t = 0.0f;
    if (len2 > 0.0f) t = fminf(fmaxf(((x - ax) * ex + (y - ay) * ey) / len2, 0.0f), 1.0f);
    float dx = x - (ax + t * ex), dy = y - (ay + t * ey);
    best = fminf(best, dx * dx + dy * dy);
  }
  out[i] = sqrtf(best);
}

extern "C" void polyline_distance(int n, int nv, const float* p, const float* v, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  polydist_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, nv, p, v, out);
}

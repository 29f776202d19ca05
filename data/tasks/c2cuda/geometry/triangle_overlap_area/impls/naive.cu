// strategy: naive (weak) — one thread per pair runs textbook Sutherland-Hodgman in float with the working polygons in dynamically indexed local-memory arrays, scalar loads
#include <cuda_runtime.h>

__device__ float orient_n(float ax, float ay, float bx, float by, float cx, float cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

__global__ void overlap_naive_kernel(int n, const float* ta, const float* tb, float* area) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ax[3], ay[3], bx[3], by[3];
  for (int k = 0; k < 3; ++k) {
    ax[k] = ta[6 * (long long)i + 2 * k];
    ay[k] = ta[6 * (long long)i + 2 * k + 1];
    bx[k] = tb[6 * (long long)i + 2 * k];
    by[k] = tb[6 * (long long)i + 2 * k + 1];
  }
  float sa = orient_n(ax[0], ay[0], ax[1], ay[1], ax[2], ay[2]);
  float sb = orient_n(bx[0], by[0], bx[1], by[1], bx[2], by[2]);
  if (sa == 0.0f || sb == 0.0f) {
    area[i] = 0.0f;
    return;
  }
  if (sa < 0) { float t = ax[1]; ax[1] = ax[2]; ax[2] = t; t = ay[1]; ay[1] = ay[2]; ay[2] = t; }
  if (sb < 0) { float t = bx[1]; bx[1] = bx[2]; bx[2] = t; t = by[1]; by[1] = by[2]; by[2] = t; }
  float px[24], py[24], qx[24], qy[24];
  int m = 3;
  for (int k = 0; k < 3; ++k) { px[k] = ax[k]; py[k] = ay[k]; }
  for (int e = 0; e < 3 && m > 0; ++e) {
    float c0x = bx[e], c0y = by[e], c1x = bx[(e + 1) % 3], c1y = by[(e + 1) % 3];
    int o = 0;
    for (int k = 0; k < m; ++k) {
      int j = (k + m - 1) % m;
      float fc = orient_n(c0x, c0y, c1x, c1y, px[k], py[k]);
      float fp = orient_n(c0x, c0y, c1x, c1y, px[j], py[j]);
      if ((fc >= 0) != (fp >= 0)) {
        float t = fp / (fp - fc);
        qx[o] = px[j] + t * (px[k] - px[j]);
        qy[o] = py[j] + t * (py[k] - py[j]);
        ++o;
      }
      if (fc >= 0) { qx[o] = px[k]; qy[o] = py[k]; ++o; }
    }
    m = o;
    for (int k = 0; k < m; ++k) { px[k] = qx[k]; py[k] = qy[k]; }
  }
  float s = 0.0f;
  for (int k = 0; k < m; ++k) {
    int k1 = (k + 1) % m;
    s += px[k] * py[k1] - px[k1] * py[k];
  }
  area[i] = 0.5f * s;
}

extern "C" void triangle_overlap_area(int n, const float* ta, const float* tb, float* area, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  overlap_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, ta, tb, area);
}

// strategy: naive (weak) — one thread per polygon walks all its vertices with scalar loads (neighbouring threads read far-apart polygons: uncoalesced and load-imbalanced)
#include <cuda_runtime.h>

__global__ void area_naive_kernel(int npoly, const int* offs, const float* xy, float* area) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoly) return;
  int b = offs[p], e = offs[p + 1];
  float s = 0.0f;
  for (int k = b; k < e; ++k) {
    int nk = (k + 1 < e) ? k + 1 : b;
    float x0 = xy[2 * (long long)k], y0 = xy[2 * (long long)k + 1];
    float x1 = xy[2 * (long long)nk], y1 = xy[2 * (long long)nk + 1];
    s += x0 * y1 - x1 * y0;
  }
  area[p] = 0.5f * s;
}

extern "C" void polygon_area_batch(int npoly, int nv, const int* offs, const float* xy, float* area,
                                   cudaStream_t stream) {
  (void)nv;
  if (npoly <= 0) return;
  const int threads = 256;
  area_naive_kernel<<<(npoly + threads - 1) / threads, threads, 0, stream>>>(npoly, offs, xy, area);
}

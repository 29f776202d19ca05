// strategy: naive (weak) — one thread per pixel with a column-major thread mapping, so a warp walks down a column (strided stores, neighbouring lanes far apart in the plane: heavy divergence)
#include <cuda_runtime.h>

__global__ void mandel_naive_kernel(int w, int h, int maxiter, double x0, double y0, double dx, double dy, int* out) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)w * h) return;
  const int j = (int)(idx / h);
  const int r = (int)(idx % h);
  const double cr = __dadd_rn(x0, __dmul_rn((double)j, dx));
  const double ci = __dadd_rn(y0, __dmul_rn((double)r, dy));
  double zr = 0.0, zi = 0.0;
  int it = 0;
  while (it < maxiter) {
    const double zr2 = __dmul_rn(zr, zr);
    const double zi2 = __dmul_rn(zi, zi);
    if (__dadd_rn(zr2, zi2) > 4.0) break;
    const double t = __dmul_rn(zr, zi);
    zi = __dadd_rn(__dadd_rn(t, t), ci);
    zr = __dadd_rn(__dsub_rn(zr2, zi2), cr);
    ++it;
  }
  out[(long long)r * w + j] = it;
}

extern "C" void mandelbrot_escape(int w, int h, int maxiter, double x0, double y0, double span_x, double span_y,
                                  int* out, cudaStream_t stream) {
  const long long total = (long long)w * h;
  if (total <= 0) return;
  const double dx = span_x / (double)w;
  const double dy = span_y / (double)h;
  const int threads = 128;
  mandel_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(w, h, maxiter, x0, y0,
                                                                                               dx, dy, out);
}

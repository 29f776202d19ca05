// strategy: naive (weak) — one thread per cell but consecutive threads step along z (the slowest axis), so a warp's accesses are nx*ny floats apart
#include <cuda_runtime.h>

__global__ void stencil3d_naive_kernel(int nz, int ny, int nx, float c0, float c1, const float* in, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)nz * ny * nx;
  if (t >= total) return;
  // decompose with z fastest across threads (the wrong order for a row-major x-fastest array)
  int z = (int)(t % nz);
  long long r = t / nz;
  int y = (int)(r % ny);
  int x = (int)(r / ny);
  const long long sy = nx, sz = (long long)nx * ny;
  long long k = z * sz + y * sy + x;
  if (z == 0 || y == 0 || x == 0 || z == nz - 1 || y == ny - 1 || x == nx - 1) {
    out[k] = in[k];
  } else {
    float s = ((((in[k - 1] + in[k + 1]) + in[k - sy]) + in[k + sy]) + in[k - sz]) + in[k + sz];
    out[k] = c0 * in[k] + c1 * s;
  }
}

extern "C" void stencil3d_7pt(int nz, int ny, int nx, float c0, float c1, const float* in, float* out,
                              cudaStream_t stream) {
  long long total = (long long)nz * ny * nx;
  if (total <= 0) return;
  const int block = 256;
  unsigned grid = (unsigned)((total + block - 1) / block);
  stencil3d_naive_kernel<<<grid, block, 0, stream>>>(nz, ny, nx, c0, c1, in, out);
}

// strategy: separable_two_pass — two coalesced kernels through a cudaMallocAsync scratch image: horizontal (2r+1)-tap sums, then vertical sums scaled by 1/(2r+1)^2
#include <cuda_runtime.h>

// grid.y indexes rows starting at y_base (grid.y is limited to 65535, so tall images take several launches)
__global__ void box_hpass_kernel(int y_base, int w, int r, const double* __restrict__ in, double* __restrict__ tmp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = (long long)y_base + blockIdx.y;
  if (x >= w) return;
  const double* row = in + y * w;
  double s = 0.0;
  for (int d = -r; d <= r; ++d) s += __ldg(row + min(max(x + d, 0), w - 1));
  tmp[y * w + x] = s;
}

__global__ void box_vpass_kernel(int y_base, int h, int w, int r, double inv, const double* __restrict__ tmp,
                                 double* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = y_base + blockIdx.y;
  if (x >= w) return;
  double s = 0.0;
  for (int d = -r; d <= r; ++d) s += __ldg(tmp + (long long)min(max(y + d, 0), h - 1) * w + x);
  out[(long long)y * w + x] = s * inv;
}

extern "C" void box_filter(int h, int w, int r, const double* in, double* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  double* tmp = nullptr;
  cudaMallocAsync((void**)&tmp, (size_t)h * w * sizeof(double), stream);
  const double inv = 1.0 / ((double)(2 * r + 1) * (double)(2 * r + 1));
  const int block = 128;
  for (int yb = 0; yb < h; yb += 65535) {
    int rows = h - yb < 65535 ? h - yb : 65535;
    dim3 grid((w + block - 1) / block, rows);
    box_hpass_kernel<<<grid, block, 0, stream>>>(yb, w, r, in, tmp);
  }
  for (int yb = 0; yb < h; yb += 65535) {
    int rows = h - yb < 65535 ? h - yb : 65535;
    dim3 grid((w + block - 1) / block, rows);
    box_vpass_kernel<<<grid, block, 0, stream>>>(yb, h, w, r, inv, tmp, out);
  }
  cudaFreeAsync(tmp, stream);
}

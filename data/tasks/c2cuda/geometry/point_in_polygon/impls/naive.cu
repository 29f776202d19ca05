// strategy: naive (weak) — one thread per point walks every edge, re-reading both endpoints of each edge from global memory, 64-bit integer cross products
#include <cuda_runtime.h>

__global__ void pip_naive_kernel(int n, int nv, const int* px, const int* py, const int* vx, const int* vy,
                                 int* inside) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = px[i], y = py[i];
  int c = 0;
  for (int k = 0; k < nv; ++k) {
    int j = (k == 0) ? nv - 1 : k - 1;
    long long xk = vx[k], yk = vy[k], xj = vx[j], yj = vy[j];
    if ((yk > y) != (yj > y)) {
      long long lhs = (x - xk) * (yj - yk);
      long long rhs = (xj - xk) * (y - yk);
      bool right = (yj > yk) ? (lhs < rhs) : (lhs > rhs);
      if (right) c ^= 1;
    }
  }
  inside[i] = c;
}

extern "C" void point_in_polygon(int n, int nv, const int* px, const int* py, const int* vx, const int* vy,
                                 int* inside, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  pip_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, nv, px, py, vx, vy, inside);
}

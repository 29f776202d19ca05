// strategy: marching_2p5d — 2.5-D blocking: a 32x8 block marches along z with the z-1/z+1 values in registers and the current xy plane (plus halo) in shared memory
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define ZCHUNK 64  // z-planes per block (more blocks for parallelism on moderate grids)

__global__ void __launch_bounds__(BX * BY) stencil3d_march_kernel(int nz, int ny, int nx, float c0, float c1,
                                                                  const float* __restrict__ in,
                                                                  float* __restrict__ out) {
  __shared__ float plane[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX + tx;
  const int y = blockIdx.y * BY + ty;
  const int z0 = blockIdx.z * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, nz);
  const long long sy = nx, sz = (long long)nx * ny;
  const bool inside = (x < nx) && (y < ny);
  const int xc = min(x, nx - 1), yc = min(y, ny - 1);
  const long long col = (long long)yc * sy + xc;  // this thread's (clamped) column offset
  // halo cells this thread is responsible for (x halo by ty==0/1 threads, y halo by tx rows)
  const int hx_left = max((int)(blockIdx.x * BX) - 1, 0);
  const int hx_right = min((int)(blockIdx.x * BX) + BX, nx - 1);
  const int hy_top = max((int)(blockIdx.y * BY) - 1, 0);
  const int hy_bot = min((int)(blockIdx.y * BY) + BY, ny - 1);

  float below = __ldg(in + (long long)max(z0 - 1, 0) * sz + col);
  float cur = __ldg(in + (long long)z0 * sz + col);
  for (int z = z0; z < z1; ++z) {  // block-uniform trip count
    float above = __ldg(in + (long long)min(z + 1, nz - 1) * sz + col);
    const long long pz = (long long)z * sz;
    plane[ty + 1][tx + 1] = cur;
    // x-halo: columns 0 and BX+1 for the BY rows of this block
    if (tx == 0) plane[ty + 1][0] = __ldg(in + pz + (long long)yc * sy + hx_left);
    if (tx == BX - 1) plane[ty + 1][BX + 1] = __ldg(in + pz + (long long)yc * sy + hx_right);
    // y-halo: rows 0 and BY+1 for the BX columns of this block
    if (ty == 0) plane[0][tx + 1] = __ldg(in + pz + (long long)hy_top * sy + xc);
    if (ty == BY - 1) plane[BY + 1][tx + 1] = __ldg(in + pz + (long long)hy_bot * sy + xc);
    __syncthreads();
    if (inside) {
      long long k = pz + (long long)y * sy + x;
      if (z == 0 || y == 0 || x == 0 || z == nz - 1 || y == ny - 1 || x == nx - 1) {
        out[k] = cur;
      } else {
        float s = ((((plane[ty + 1][tx] + plane[ty + 1][tx + 2]) + plane[ty][tx + 1]) + plane[ty + 2][tx + 1]) +
                   below) + above;
        out[k] = c0 * cur + c1 * s;
      }
    }
    __syncthreads();  // the plane is overwritten in the next iteration
    below = cur;
    cur = above;
  }
}

extern "C" void stencil3d_7pt(int nz, int ny, int nx, float c0, float c1, const float* in, float* out,
                              cudaStream_t stream) {
  if (nz <= 0 || ny <= 0 || nx <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((unsigned)((nx + BX - 1) / BX), (unsigned)((ny + BY - 1) / BY), (unsigned)((nz + ZCHUNK - 1) / ZCHUNK));
  stencil3d_march_kernel<<<grid, block, 0, stream>>>(nz, ny, nx, c0, c1, in, out);
}

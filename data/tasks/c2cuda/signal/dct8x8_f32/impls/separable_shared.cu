// strategy: separable_shared — 32x8 thread blocks cover four 8x8 DCT blocks; coalesced tile load into shared memory, row-DCT pass and column-DCT pass (8 MACs each per pixel) through shared memory with a padded coefficient table, coalesced store
#include <cuda_runtime.h>

namespace {

__constant__ float kDct[64] = {
    3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f,
    4.903926402e-01f, 4.157348062e-01f, 2.777851165e-01f, 9.754516101e-02f, -9.754516101e-02f, -2.777851165e-01f, -4.157348062e-01f, -4.903926402e-01f,
    4.619397663e-01f, 1.913417162e-01f, -1.913417162e-01f, -4.619397663e-01f, -4.619397663e-01f, -1.913417162e-01f, 1.913417162e-01f, 4.619397663e-01f,
    4.157348062e-01f, -9.754516101e-02f, -4.903926402e-01f, -2.777851165e-01f, 2.777851165e-01f, 4.903926402e-01f, 9.754516101e-02f, -4.157348062e-01f,
    3.535533906e-01f, -3.535533906e-01f, -3.535533906e-01f, 3.535533906e-01f, 3.535533906e-01f, -3.535533906e-01f, -3.535533906e-01f, 3.535533906e-01f,
    2.777851165e-01f, -4.903926402e-01f, 9.754516101e-02f, 4.157348062e-01f, -4.157348062e-01f, -9.754516101e-02f, 4.903926402e-01f, -2.777851165e-01f,
    1.913417162e-01f, -4.619397663e-01f, 4.619397663e-01f, -1.913417162e-01f, -1.913417162e-01f, 4.619397663e-01f, -4.619397663e-01f, 1.913417162e-01f,
    9.754516101e-02f, -2.777851165e-01f, 4.157348062e-01f, -4.903926402e-01f, 4.903926402e-01f, -4.157348062e-01f, 2.777851165e-01f, -9.754516101e-02f,
};

__global__ void __launch_bounds__(256) dct8x8_shared_kernel(int bh, int bw, const float* __restrict__ img,
                                                            float* __restrict__ out) {
  __shared__ float tile[8][33];
  __shared__ float tmp[8][33];
  __shared__ float cs[8][9];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * 32 + tx;
  if (tid < 64) cs[tid >> 3][tid & 7] = kDct[tid];
  const long long w = 8LL * bw;
  const long long col = (long long)blockIdx.x * 32 + tx;
  const long long row = (long long)blockIdx.y * 8 + ty;
  const bool inside = col < w;
  tile[ty][tx] = inside ? __ldg(img + row * w + col) : 0.0f;
  __syncthreads();
  const int b0 = tx & ~7, v = tx & 7;
  // row pass: tmp[x][b0+v] = sum_y tile[x][b0+y] * C[v][y]   (x = ty)
  float s = 0.0f;
#pragma unroll
  for (int y = 0; y < 8; ++y) s = fmaf(tile[ty][b0 + y], cs[v][y], s);
  tmp[ty][tx] = s;
  __syncthreads();
  // column pass: X[u][b0+v] = sum_x C[u][x] * tmp[x][b0+v]   (u = ty)
  float o = 0.0f;
#pragma unroll
  for (int x = 0; x < 8; ++x) o = fmaf(cs[ty][x], tmp[x][tx], o);
  if (inside) out[row * w + col] = o;
}

}  // namespace

extern "C" void dct8x8_f32(int bh, int bw, const float* img, float* out, cudaStream_t stream) {
  if (bh <= 0 || bw <= 0) return;
  dim3 block(32, 8);
  dim3 grid((unsigned int)((8LL * bw + 31) / 32), (unsigned int)bh);
  dct8x8_shared_kernel<<<grid, block, 0, stream>>>(bh, bw, img, out);
}

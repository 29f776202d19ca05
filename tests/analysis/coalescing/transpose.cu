// Naive transpose: the read walks a row (unit stride), the write walks a column, whose stride is
// the runtime row count: a symbolic stride 4*rows bytes.
extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out,
                                           int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) {
    out[x * rows + y] = in[y * cols + x];
  }
}

// Each thread sums one row of a row-major n x n matrix: consecutive threads are n floats apart.
extern "C" __global__ void row_sums(const float* __restrict__ a, float* __restrict__ s, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float acc = 0.f;
  for (int j = 0; j < n; ++j) {
    acc += a[r * n + j];
  }
  s[r] = acc;
}

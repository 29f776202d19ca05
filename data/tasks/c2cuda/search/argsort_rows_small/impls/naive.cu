// strategy: naive (weak) — one thread per row copies the row into local-memory arrays and insertion-sorts (value, column) pairs; rows are w floats apart so a warp's loads and stores are uncoalesced and the work per thread is O(w^2)
#include <cuda_runtime.h>

__global__ void argsort_naive_kernel(int rows, int w, const float* x, int* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float key[64];
  int col[64];
  const float* row = x + (long long)r * w;
  for (int j = 0; j < w; ++j) {
    const float v = row[j];
    int p = j;
    while (p > 0 && key[p - 1] > v) {
      key[p] = key[p - 1];
      col[p] = col[p - 1];
      --p;
    }
    key[p] = v;
    col[p] = j;
  }
  int* o = out + (long long)r * w;
  for (int p = 0; p < w; ++p) o[p] = col[p];
}

extern "C" void argsort_rows_small(int rows, int w, const float* x, int* out, cudaStream_t stream) {
  if (rows <= 0) return;
  argsort_naive_kernel<<<(rows + 127) / 128, 128, 0, stream>>>(rows, w, x, out);
}

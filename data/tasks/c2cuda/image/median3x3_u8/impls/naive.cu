// strategy: naive (weak) — one thread per pixel with threadIdx.x mapped to rows (uncoalesced byte accesses), gathers the 9 values into a local array and insertion-sorts them
#include <cuda_runtime.h>

__global__ void median_naive_kernel(int h, int w, const unsigned char* in, unsigned char* out) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h || x >= w) return;
  unsigned char v[9];
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      v[n++] = in[(long long)min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
  for (int i = 1; i < 9; ++i) {
    unsigned char key = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > key) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = key;
  }
  out[(long long)y * w + x] = v[4];
}

extern "C" void median3x3_u8(int h, int w, const unsigned char* in, unsigned char* out, cudaStream_t stream) {
  if (h <= 0 || w <= 0) return;
  dim3 block(32, 8);
  dim3 grid((h + 31) / 32, (w + 7) / 8);
  median_naive_kernel<<<grid, block, 0, stream>>>(h, w, in, out);
}

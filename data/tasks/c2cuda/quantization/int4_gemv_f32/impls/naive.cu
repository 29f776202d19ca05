// strategy: naive (weak) — one thread per row decodes its packed nibbles byte by byte and accumulates alone: neighbouring threads read bytes 16*groups apart (uncoalesced), no vector loads
#include <cuda_runtime.h>

__device__ __forceinline__ int nib_s4(unsigned int v) { return (int)(v & 15u) - ((v & 8u) ? 16 : 0); }

__global__ void int4_gemv_naive_kernel(int rows, int groups, const unsigned char* w, const float* scales,
                                       const float* x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned char* wr = w + (size_t)r * groups * 16;
  float acc = 0.0f;
  for (int g = 0; g < groups; ++g) {
    float part = 0.0f;
    for (int j = 0; j < 16; ++j) {
      unsigned int byte = wr[g * 16 + j];
      part += (float)nib_s4(byte) * x[g * 32 + 2 * j];
      part += (float)nib_s4(byte >> 4) * x[g * 32 + 2 * j + 1];
    }
    acc += scales[(size_t)r * groups + g] * part;
  }
  y[r] = acc;
}

extern "C" void int4_gemv_f32(int rows, int groups, const unsigned char* w, const float* scales, const float* x,
                              float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  const int threads = 128;
  int4_gemv_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, groups, w, scales, x, y);
}

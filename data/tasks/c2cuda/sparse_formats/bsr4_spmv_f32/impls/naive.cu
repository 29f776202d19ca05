// strategy: naive (weak) — one thread per scalar row (4 per block row) walks every block of its block row with scalar loads of its 4 block entries and 4 x values; no vector loads, no cooperation, load-imbalanced
#include <cuda_runtime.h>

__global__ void bsr4_naive_kernel(int mb, const int* browptr, const int* bcolidx, const float* bvals, const float* x,
                                  float* y) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 4LL * mb) return;
  const int br = (int)(t >> 2), i = (int)(t & 3);
  float s = 0.0f;
  for (int k = browptr[br]; k < browptr[br + 1]; ++k) {
    const float* blk = bvals + 16 * (size_t)k + 4 * i;
    const float* xs = x + 4 * (size_t)bcolidx[k];
    for (int j = 0; j < 4; ++j) s += blk[j] * xs[j];
  }
  y[t] = s;
}

extern "C" void bsr4_spmv_f32(int mb, int nb, int nnzb, const int* browptr, const int* bcolidx, const float* bvals,
                              const float* x, float* y, cudaStream_t stream) {
  (void)nb;
  (void)nnzb;
  if (mb <= 0) return;
  const int threads = 256;
  const long long n = 4LL * mb;
  bsr4_naive_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(mb, browptr, bcolidx, bvals, x, y);
}

// strategy: naive (weak) — one thread per (signal, bin) output, a sincospif call for every term (j*k reduced mod n with a 64-bit multiply and modulo), x re-read from global memory
#include <cuda_runtime.h>

__global__ void dft_naive_kernel(int batch, int n, int nbins, const float* x, float* out) {
  const long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= (long long)batch * nbins) return;
  const int b = (int)(id / nbins), k = (int)(id % nbins);
  const float* xb = x + (long long)b * n;
  float re = 0.0f, im = 0.0f;
  for (int j = 0; j < n; ++j) {
    const int r = (int)(((long long)j * k) % n);
    float sn, cs;
    sincospif(2.0f * (float)r / (float)n, &sn, &cs);
    re += xb[j] * cs;
    im -= xb[j] * sn;
  }
  out[2 * id] = re;
  out[2 * id + 1] = im;
}

extern "C" void dft_real_bins(int batch, int n, int nbins, const float* x, float* out, cudaStream_t stream) {
  const long long total = (long long)batch * nbins;
  if (total <= 0) return;
  const int threads = 256;
  dft_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(batch, n, nbins, x, out);
}

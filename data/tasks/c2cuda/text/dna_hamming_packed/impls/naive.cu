// strategy: naive (weak) — one thread per pair walks its L bases one by one, extracting and comparing 2-bit codes with byte loads (neighbouring threads read addresses R bytes apart: uncoalesced)
#include <cuda_runtime.h>

__global__ void dna_hamming_naive_kernel(int npairs, int L, const unsigned char* a, const unsigned char* b,
                                         int* dist) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= npairs) return;
  const long long R = (L + 3) / 4;
  const unsigned char* pa = a + (long long)i * R;
  const unsigned char* pb = b + (long long)i * R;
  int d = 0;
  for (int j = 0; j < L; ++j) {
    const int sh = 2 * (j & 3);
    d += (((pa[j >> 2] >> sh) & 3) != ((pb[j >> 2] >> sh) & 3));
  }
  dist[i] = d;
}

extern "C" void dna_hamming_packed(int npairs, int L, const unsigned char* a, const unsigned char* b, int* dist,
                                   cudaStream_t stream) {
  if (npairs <= 0) return;
  const int threads = 128;
  dna_hamming_naive_kernel<<<(npairs + threads - 1) / threads, threads, 0, stream>>>(npairs, L, a, b, dist);
}

// strategy: naive (weak) — every element finds its final slot on its own: a[i] goes to i + (number of b < a[i]), b[j] to j + (number of a <= b[j]), each by a full-depth binary search in global memory (log n dependent random loads per element, scattered stores)
#include <cuda_runtime.h>

__global__ void place_a(int na, int nb, const double* a, const double* b, double* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= na) return;
  const double v = a[i];
  int lo = 0, hi = nb;  // first b >= v
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (b[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  out[i + lo] = v;
}

__global__ void place_b(int na, int nb, const double* a, const double* b, double* out) {
  long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nb) return;
  const double v = b[j];
  int lo = 0, hi = na;  // first a > v
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (a[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  out[j + lo] = v;
}

extern "C" void merge_sorted_f64(int na, int nb, const double* a, const double* b, double* out, cudaStream_t stream) {
  const int threads = 256;
  if (na > 0) place_a<<<(na + threads - 1) / threads, threads, 0, stream>>>(na, nb, a, b, out);
  if (nb > 0) place_b<<<(nb + threads - 1) / threads, threads, 0, stream>>>(na, nb, a, b, out);
}

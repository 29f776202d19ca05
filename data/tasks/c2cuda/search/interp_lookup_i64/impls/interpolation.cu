// strategy: interpolation — per query, a guarded interpolation search: the next probe is placed where the key would sit if keys were evenly spaced between the bracket ends (about log log n probes on near-uniform keys), alternating with a bisection step so skewed gaps can never make it worse than twice binary search
#include <cuda_runtime.h>

namespace {

__global__ void interp_lookup_kernel(int n, int m, const long long* __restrict__ keys, const long long* __restrict__ q,
                                     int* __restrict__ pos) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const long long v = __ldcs(q + i);
  int ans;
  if (n <= 0) {
    ans = 0;
  } else {
    long long klo = __ldg(keys), khi = __ldg(keys + n - 1);
    if (v <= klo) {
      ans = 0;
    } else if (v > khi) {
      ans = n;
    } else {
      // invariant: keys[lo] < v <= keys[hi], lo < hi; the answer (lower_bound) is hi once hi == lo + 1
      int lo = 0, hi = n - 1;
      bool interp = true;
      while (hi - lo > 1) {
        int p;
        if (interp) {
          const double f = (double)(v - klo) / (double)(khi - klo);
          p = lo + (int)(f * (double)(hi - lo));
          p = p <= lo ? lo + 1 : (p >= hi ? hi - 1 : p);
        } else {
          p = lo + ((hi - lo) >> 1);
        }
        interp = !interp;
        const long long kp = __ldg(keys + p);
        if (kp < v) {
          lo = p;
          klo = kp;
        } else {
          hi = p;
          khi = kp;
        }
      }
      ans = hi;
    }
  }
  __stcs(pos + i, (ans < n && __ldg(keys + ans) == v) ? ans : -1);
}

}  // namespace

extern "C" void interp_lookup_i64(int n, int m, const long long* keys, const long long* q, int* pos,
                                  cudaStream_t stream) {
  if (m <= 0) return;
  interp_lookup_kernel<<<(unsigned)(((long long)m + 255) / 256), 256, 0, stream>>>(n, m, keys, q, pos);
}

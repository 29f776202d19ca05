// strategy: naive (weak) — each thread prices a contiguous run of 16 bonds (uncoalesced) and recomputes exp() for every cash flow straight from the global curve
#include <cuda_runtime.h>

namespace {
constexpr int kRun = 16;

__global__ void bond_naive(int n, int m, double dt, const double* zr, const double* coupon,
                           const double* face, const int* mat, double* price) {
  const long long b0 = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * kRun;
  for (long long b = b0; b < b0 + kRun && b < n; ++b) {
    int M = mat[b];
    M = M < 1 ? 1 : (M > m ? m : M);
    const double cf = face[b] * coupon[b] * dt;
    double acc = 0.0;
    for (int t = 1; t <= M; ++t) acc += cf * exp(-zr[t - 1] * ((double)t * dt));
    price[b] = acc + face[b] * exp(-zr[M - 1] * ((double)M * dt));
  }
}
}  // namespace

extern "C" void bond_price_curve(int n, int m, double dt, const double* zr, const double* coupon,
                                 const double* face, const int* mat, double* price,
                                 cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const long long runs = (n + kRun - 1) / kRun;
  const int block = 64;
  bond_naive<<<(int)((runs + block - 1) / block), block, 0, stream>>>(n, m, dt, zr, coupon, face,
                                                                      mat, price);
}

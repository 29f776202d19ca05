// strategy: chunked_scan — time-parallel linear-recurrence scan: split every channel into 256-sample chunks; pass 1 filters each chunk from a zero state and records its end state, pass 2 propagates the true chunk-boundary states per channel with the 2x2 chunk transition matrix A^256 (in double), pass 3 refilters each chunk from its true initial state and writes y (nch * chunks threads instead of nch)
#include <cuda_runtime.h>

namespace {

constexpr int kC = 256;  // chunk length

// pass 1: zero-state response of chunk q of channel c; end state (y[last], y[last-1]) -> ends
__global__ void biquad_chunk_zero_kernel(int nch, int len, int nq, float b0, float b1, float b2, float a1, float a2,
                                         const float* __restrict__ x, float2* __restrict__ ends) {
  const long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= (long long)nch * nq) return;
  const int c = (int)(id % nch), q = (int)(id / nch);
  const float* xc = x + (long long)c * len;
  const int t0 = q * kC, t1 = min(t0 + kC, len);
  float x1 = (t0 >= 1) ? __ldg(xc + t0 - 1) : 0.0f;
  float x2 = (t0 >= 2) ? __ldg(xc + t0 - 2) : 0.0f;
  float y1 = 0.0f, y2 = 0.0f;
  for (int t = t0; t < t1; ++t) {
    const float x0 = __ldg(xc + t);
    const float y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
  }
  ends[(long long)q * nch + c] = make_float2(y1, y2);
}

// pass 2: one thread per channel; init[q] = true state (y[t0-1], y[t0-2]) entering chunk q
__global__ void biquad_carry_kernel(int nch, int nq, float a1, float a2, const float2* __restrict__ ends,
                                    double2* __restrict__ init) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nch) return;
  // M = A^kC where A maps (p, pp) -> (-a1*p - a2*pp, p); columns from the unit states
  const double A1 = a1, A2 = a2;
  double m00 = 1.0, m10 = 0.0, m01 = 0.0, m11 = 1.0;  // M = I
  for (int s = 0; s < kC; ++s) {
    const double n00 = -A1 * m00 - A2 * m10, n01 = -A1 * m01 - A2 * m11;
    m10 = m00;
    m11 = m01;
    m00 = n00;
    m01 = n01;
  }
  double p = 0.0, pp = 0.0;
  for (int q = 0; q < nq; ++q) {
    init[(long long)q * nch + c] = make_double2(p, pp);
    // state after full chunk q: M * state + zero-state end (only needed for q < nq-1, all full chunks)
    const float2 e = ends[(long long)q * nch + c];
    const double np = m00 * p + m01 * pp + (double)e.x;
    const double npp = m10 * p + m11 * pp + (double)e.y;
    p = np;
    pp = npp;
  }
}

// pass 3: refilter chunk q from its true initial state and store y
__global__ void biquad_chunk_final_kernel(int nch, int len, int nq, float b0, float b1, float b2, float a1, float a2,
                                          const float* __restrict__ x, const double2* __restrict__ init,
                                          float* __restrict__ y) {
  const long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= (long long)nch * nq) return;
  const int c = (int)(id % nch), q = (int)(id / nch);
  const float* xc = x + (long long)c * len;
  float* yc = y + (long long)c * len;
  const int t0 = q * kC, t1 = min(t0 + kC, len);
  float x1 = (t0 >= 1) ? __ldg(xc + t0 - 1) : 0.0f;
  float x2 = (t0 >= 2) ? __ldg(xc + t0 - 2) : 0.0f;
  const double2 s = init[(long long)q * nch + c];
  float y1 = (float)s.x, y2 = (float)s.y;
  for (int t = t0; t < t1; ++t) {
    const float x0 = __ldg(xc + t);
    const float y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    yc[t] = y0;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
  }
}

}  // namespace

extern "C" void biquad_iir(int nch, int len, float b0, float b1, float b2, float a1, float a2, const float* x,
                           float* y, cudaStream_t stream) {
  if (nch <= 0 || len <= 0) return;
  const int nq = (len + kC - 1) / kC;
  const long long work = (long long)nch * nq;
  float2* ends = nullptr;
  double2* init = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&ends), sizeof(float2) * (size_t)work, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&init), sizeof(double2) * (size_t)work, stream);
  const int threads = 128;
  const unsigned int blocks = (unsigned int)((work + threads - 1) / threads);
  biquad_chunk_zero_kernel<<<blocks, threads, 0, stream>>>(nch, len, nq, b0, b1, b2, a1, a2, x, ends);
  biquad_carry_kernel<<<(nch + threads - 1) / threads, threads, 0, stream>>>(nch, nq, a1, a2, ends, init);
  biquad_chunk_final_kernel<<<blocks, threads, 0, stream>>>(nch, len, nq, b0, b1, b2, a1, a2, x, init, y);
  cudaFreeAsync(ends, stream);
  cudaFreeAsync(init, stream);
}

// redteam: issue 18 class 5 — a correct saxpy that also writes one element 1 MiB past the end of out
// expect: out_of_bounds|runtime_error|crash|input_mutated
//
// Old design: guard bands were 4 KB and buffers came from cudaMalloc's shared 2 MiB pages, so the
// write landed, unseen, in whatever lay there (or nothing): `ok`. New design: each output in its
// own allocation with large guard regions (checked) or unmapped pages around it: out_of_bounds, or
// an illegal address (runtime_error / crash); landing in another buffer the launcher maps is
// input_mutated.
#include <cuda_runtime.h>

constexpr long long kPast = (1LL << 20) / sizeof(float);  // elements past the end

__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaf(a, x[i], y[i]);
  if (i == 0) out[n + kPast - 1] = 1.0f;
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  saxpy_k<<<static_cast<int>((n + 255LL) / 256), 256, 0, stream>>>(n, a, x, y, out);
}

// strategy: naive (weak) — one thread per query row: one pass over the keys for the max score, a second for the softmax denominator, a third that recomputes each score and accumulates p * V straight into the global output row (read-modify-write); no shared memory, strided per-thread rows
#include <cuda_runtime.h>
#include <math.h>

__global__ void attention_naive_kernel(int batch, int seq, int d, float scale, const float* Q, const float* K,
                                       const float* V, float* out) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)batch * seq) return;
  const long long b = t / seq;
  const long long base = b * seq * d;
  const float* q = Q + t * d;
  float* o = out + t * d;
  float mx = -INFINITY;
  for (int j = 0; j < seq; ++j) {
    const float* k = K + base + (long long)j * d;
    float dot = 0.f;
    for (int c = 0; c < d; ++c) dot += q[c] * k[c];
    mx = fmaxf(mx, dot * scale);
  }
  float sum = 0.f;
  for (int j = 0; j < seq; ++j) {
    const float* k = K + base + (long long)j * d;
    float dot = 0.f;
    for (int c = 0; c < d; ++c) dot += q[c] * k[c];
    sum += expf(dot * scale - mx);
  }
  for (int c = 0; c < d; ++c) o[c] = 0.f;
  for (int j = 0; j < seq; ++j) {
    const float* k = K + base + (long long)j * d;
    float dot = 0.f;
    for (int c = 0; c < d; ++c) dot += q[c] * k[c];
    const float p = expf(dot * scale - mx) / sum;
    const float* v = V + base + (long long)j * d;
    for (int c = 0; c < d; ++c) o[c] += p * v[c];
  }
}

extern "C" void attention_f32(int batch, int seq, int d, const float* Q, const float* K, const float* V, float* out,
                              cudaStream_t stream) {
  if (batch <= 0 || seq <= 0 || d <= 0) return;
  const long long total = (long long)batch * seq;
  const int threads = 128;
  const float scale = (float)(1.0 / sqrt((double)d));
  attention_naive_kernel<<<(int)((total + threads - 1) / threads), threads, 0, stream>>>(batch, seq, d, scale, Q, K, V, out);
}

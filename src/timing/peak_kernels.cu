// Kernels and host code that measure the device peaks (timing/peaks.hpp). Small C-style
// interface so the .cpp side needs no CUDA compiler.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "peak_kernels.hpp"

namespace cudaperf::timing {
namespace {

constexpr int kChains = 8;

template <typename T>
__global__ void fma_chains(T* sink, int iters, T a, T b) {
  T x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = static_cast<T>(threadIdx.x + k);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) x[k] = fma(x[k], a, b);
  }
  T sum = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) sum += x[k];
  if (sum == static_cast<T>(-1.25)) sink[0] = sum;  // never true; keeps the chains alive
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

__global__ void read_stream(const float4* in, size_t n4, float* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n4; i += size_t{gridDim.x} * blockDim.x) {
    float4 v = in[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == -1.25f) sink[0] = s;  // never true for the filled buffer; keeps the loads alive
}

// Times `op` 12 times on the default stream, the first two as warm-ups: the median of `work / time`
// (bytes or FLOPs per second).
template <typename Op>
int rate_of(double work, double* out, Op op) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> rates;
  for (int rep = 0; rep < 12; ++rep) {
    cudaEventRecord(e0);
    op();
    cudaEventRecord(e1);
    if (cudaEventSynchronize(e1) != cudaSuccess) return 1;
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (rep >= 2 && ms > 0) rates.push_back(work / (ms * 1e-3));
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  *out = median(rates);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

template <typename T>
int fma_rate(int sms, int iters, double* out) {
  T* sink = nullptr;
  if (cudaMalloc(&sink, sizeof(T)) != cudaSuccess) return 1;
  const int threads = 256, blocks = sms * 8;
  int rc = rate_of(2.0 * kChains * iters * double(threads) * blocks, out, [&] {
    fma_chains<T><<<blocks, threads>>>(sink, iters, static_cast<T>(0.9999999), static_cast<T>(1e-7));
  });
  cudaFree(sink);
  return rc;
}

int memory_rates(int sms, double* copy, double* read, double* write) {
  const size_t bytes = size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 1;
  cudaMemset(a, 1, bytes);
  int rc = rate_of(2.0 * double(bytes), copy, [&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice); });
  if (rc == 0)
    rc = rate_of(double(bytes), read, [&] {
      read_stream<<<sms * 8, 512>>>(static_cast<const float4*>(a), bytes / sizeof(float4), static_cast<float*>(b));
    });
  if (rc == 0) rc = rate_of(double(bytes), write, [&] { cudaMemsetAsync(b, 0, bytes); });
  cudaFree(a);
  cudaFree(b);
  return rc;
}

}  // namespace

int measure_peaks(double* copy_bytes_per_s, double* read_bytes_per_s, double* write_bytes_per_s, double* fp32_flops_per_s,
                  double* fp64_flops_per_s) {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) return 1;
  if (memory_rates(sms, copy_bytes_per_s, read_bytes_per_s, write_bytes_per_s)) return 2;
  if (fma_rate<float>(sms, 1 << 16, fp32_flops_per_s)) return 3;
  if (fma_rate<double>(sms, 1 << 14, fp64_flops_per_s)) return 4;
  return 0;
}

}  // namespace cudaperf::timing

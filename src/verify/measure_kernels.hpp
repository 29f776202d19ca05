// The measurer's own kernels (besides the output comparison of device_compare.hpp): the spin
// kernel that holds its stream until the candidate's call is enqueued, the guard-region check, and
// fresh inputs for every perf call drawn on the GPU. Small C-style interface; built by nvcc.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace cudaperf::verify {

// Spins (one thread) until *flag == value or `timeout_ns` of GPU time passed; the flag lives in
// mapped host memory, so the host releases the stream by writing it.
cudaError_t spin_until_async(const volatile unsigned* flag, unsigned value, unsigned long long timeout_ns,
                             cudaStream_t s);

// Adds to *count (device memory) the number of the n bytes at p that differ from `byte`.
cudaError_t count_bytes_not_async(const void* p, size_t n, unsigned char byte, unsigned long long* count,
                                  cudaStream_t s);

// An input distribution the GPU can draw afresh for every call (task::Dist's element-wise kinds).
struct DeviceDraw {
  enum Kind : int { kUniform = 0, kNormal, kMixed, kIndex } kind = kUniform;
  int type = 0;          // DeviceType (device_compare.hpp)
  double a = 0, b = 1;   // uniform/mixed: range; normal: mean, stdev; index: [a, b) as integers
};

// Fills n elements at p from `d`, a pure function of (seed, element index).
cudaError_t draw_async(const DeviceDraw& d, uint64_t seed, void* p, size_t n, cudaStream_t s);

}  // namespace cudaperf::verify

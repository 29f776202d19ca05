// Device-side output check used during timing: every timed call's outputs are compared with the
// verified warm-up outputs of the same input set, on the GPU, outside the timed window.
// Small C-style interface; the kernels live in device_compare.cu (built by nvcc).
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

namespace cudaperf::verify {

// Element types, in the order of task::ScalarType.
enum DeviceType : int { kDevI8 = 0, kDevU8, kDevI32, kDevU32, kDevI64, kDevU64, kDevF32, kDevF64 };

// Adds to *mismatches (device memory) the number of the n elements of `got` that do not match
// `want`: bitwise when `bitwise`, else |got - want| <= atol + rtol * |want| with NaN only
// matching NaN and infinities only themselves (the host comparison's rule).
cudaError_t count_mismatches_async(int type, const void* got, const void* want, size_t n, double rtol, double atol,
                                   bool bitwise, unsigned long long* mismatches, cudaStream_t s);

}  // namespace cudaperf::verify

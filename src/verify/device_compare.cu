#include "device_compare.hpp"

#include <cstdint>

namespace cudaperf::verify {
namespace {

template <int N> struct Bits;
template <> struct Bits<1> { using type = uint8_t; };
template <> struct Bits<4> { using type = uint32_t; };
template <> struct Bits<8> { using type = uint64_t; };

template <class T>
__device__ typename Bits<sizeof(T)>::type bits_of(T v) {
  typename Bits<sizeof(T)>::type b;
  memcpy(&b, &v, sizeof(T));
  return b;
}

template <class T>
__device__ bool matches(T w, T g, double rtol, double atol) {
  double dw = static_cast<double>(w), dg = static_cast<double>(g);
  if (w == g) return true;
  if (isnan(dw) || isnan(dg)) return isnan(dw) && isnan(dg);
  if (isinf(dw) || isinf(dg)) return false;
  return fabs(dg - dw) <= atol + rtol * fabs(dw);
}

template <class T>
__global__ void count_kernel(const T* got, const T* want, size_t n, double rtol, double atol, bool bitwise,
                             unsigned long long* mismatches) {
  unsigned long long bad = 0;
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    T g = got[i], w = want[i];
    if (bitwise) {
      if (bits_of(g) != bits_of(w)) ++bad;
    } else if (!matches(w, g, rtol, atol)) {
      ++bad;
    }
  }
  for (int o = 16; o > 0; o >>= 1) bad += __shfl_down_sync(0xffffffffu, bad, o);
  if ((threadIdx.x & 31) == 0 && bad) atomicAdd(mismatches, bad);
}

template <class T>
cudaError_t launch(const void* got, const void* want, size_t n, double rtol, double atol, bool bitwise,
                   unsigned long long* mismatches, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  size_t blocks = (n + 255) / 256;
  if (blocks > 4096) blocks = 4096;
  count_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, s>>>(static_cast<const T*>(got), static_cast<const T*>(want),
                                                                 n, rtol, atol, bitwise, mismatches);
  return cudaGetLastError();
}

}  // namespace

cudaError_t count_mismatches_async(int type, const void* got, const void* want, size_t n, double rtol, double atol,
                                   bool bitwise, unsigned long long* mismatches, cudaStream_t s) {
  switch (type) {
    case kDevI8: return launch<int8_t>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevU8: return launch<uint8_t>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevI32: return launch<int32_t>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevU32: return launch<uint32_t>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevI64: return launch<int64_t>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevU64: return launch<uint64_t>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevF32: return launch<float>(got, want, n, rtol, atol, bitwise, mismatches, s);
    case kDevF64: return launch<double>(got, want, n, rtol, atol, bitwise, mismatches, s);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace cudaperf::verify

#include "measure_kernels.hpp"

#include <cmath>
#include <cuda/std/limits>

#include "device_compare.hpp"

namespace cudaperf::verify {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_kernel(const volatile unsigned* flag, unsigned value, unsigned long long timeout_ns) {
  unsigned long long t0 = global_ns();
  while (*flag != value) {
    if (global_ns() - t0 > timeout_ns) return;
    __nanosleep(200);
  }
}

__global__ void bytes_not_kernel(const unsigned char* p, size_t n, unsigned char byte, unsigned long long* count) {
  unsigned long long bad = 0;
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) bad += p[i] != byte;
  for (int o = 16; o > 0; o >>= 1) bad += __shfl_down_sync(0xffffffffu, bad, o);
  if ((threadIdx.x & 31) == 0 && bad) atomicAdd(count, bad);
}

// splitmix64 of (seed, index): independent per element, the same on every run.
__device__ uint64_t mix(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ double unit(uint64_t r) { return static_cast<double>(r >> 11) * 0x1.0p-53; }

template <class T>
__device__ T convert(double v, bool fl) {
  if (fl) return static_cast<T>(v);
  // integers saturate, as BufferView::set does on the host
  double lo = static_cast<double>(cuda::std::numeric_limits<T>::lowest());
  double hi = static_cast<double>(cuda::std::numeric_limits<T>::max());
  if (isnan(v)) return T{0};
  if (v <= lo) return cuda::std::numeric_limits<T>::lowest();
  if (v >= hi) return cuda::std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

template <class T>
__global__ void draw_kernel(DeviceDraw d, bool fl, uint64_t seed, T* out, size_t n) {
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint64_t r = mix(seed, 2 * i), r2 = mix(seed, 2 * i + 1);
    double a = d.a, b = d.b, v = 0;
    auto uniform = [&](uint64_t x) {
      if (fl) return a + (b - a) * unit(x);
      double lo = ceil(a), hi = floor(b);
      if (hi < lo) return lo;
      return lo + static_cast<double>(x % static_cast<uint64_t>(hi - lo + 1));
    };
    switch (d.kind) {
      case DeviceDraw::kUniform: v = uniform(r); break;
      case DeviceDraw::kNormal: {
        double u1 = fmax(unit(r), 1e-300), u2 = unit(r2);
        v = a + b * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        break;
      }
      case DeviceDraw::kMixed: {
        double tiny = fmax(fabs(a), fabs(b)) * 1e-4;
        uint64_t pick = r % 8;
        if (pick == 0 && a <= 0 && b >= 0) v = (unit(r2) * 2 - 1) * tiny;
        else if (pick == 1) v = (r2 & 1) ? a : nextafter(b, a);
        else if (pick == 2) v = round(uniform(r2));
        else v = uniform(r2);
        v = fmin(fmax(v, a), b);
        break;
      }
      case DeviceDraw::kIndex: {
        double span = b > a ? b - a : 1;
        v = a + static_cast<double>(r % static_cast<uint64_t>(span));
        break;
      }
    }
    out[i] = convert<T>(v, fl);
  }
}

template <class T>
cudaError_t draw_typed(const DeviceDraw& d, bool fl, uint64_t seed, void* p, size_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  size_t blocks = (n + 255) / 256;
  if (blocks > 8192) blocks = 8192;
  draw_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, s>>>(d, fl, seed, static_cast<T*>(p), n);
  return cudaGetLastError();
}

}  // namespace

cudaError_t spin_until_async(const volatile unsigned* flag, unsigned value, unsigned long long timeout_ns,
                             cudaStream_t s) {
  spin_kernel<<<1, 1, 0, s>>>(flag, value, timeout_ns);
  return cudaGetLastError();
}

cudaError_t count_bytes_not_async(const void* p, size_t n, unsigned char byte, unsigned long long* count,
                                  cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  size_t blocks = (n + 255) / 256;
  if (blocks > 4096) blocks = 4096;
  bytes_not_kernel<<<static_cast<unsigned>(blocks), 256, 0, s>>>(static_cast<const unsigned char*>(p), n, byte, count);
  return cudaGetLastError();
}

cudaError_t draw_async(const DeviceDraw& d, uint64_t seed, void* p, size_t n, cudaStream_t s) {
  switch (d.type) {
    case kDevI8: return draw_typed<int8_t>(d, false, seed, p, n, s);
    case kDevU8: return draw_typed<uint8_t>(d, false, seed, p, n, s);
    case kDevI32: return draw_typed<int32_t>(d, false, seed, p, n, s);
    case kDevU32: return draw_typed<uint32_t>(d, false, seed, p, n, s);
    case kDevI64: return draw_typed<int64_t>(d, false, seed, p, n, s);
    case kDevU64: return draw_typed<uint64_t>(d, false, seed, p, n, s);
    case kDevF32: return draw_typed<float>(d, true, seed, p, n, s);
    case kDevF64: return draw_typed<double>(d, true, seed, p, n, s);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace cudaperf::verify

// Seeded input generation for a task configuration.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "cudaperf/task/task.hpp"

namespace cudaperf::task {

// A view of one typed buffer (memory owned elsewhere).
struct BufferView {
  ScalarType type = ScalarType::F32;
  int64_t count = 0;
  void* data = nullptr;

  size_t bytes() const { return static_cast<size_t>(count) * type_size(type); }
  double get(int64_t i) const;       // element as double
  void set(int64_t i, double v);     // converts (saturating for integers)
};

// Per-parameter argument values for one call: scalars by value, buffers by element count.
struct CallShape {
  std::vector<int64_t> counts;   // element count per param (0 for non-buffers)
  std::vector<double> scalars;   // value per param for size/scalar roles
};

// Evaluates lengths and scalar values for a config (the task was validated on load).
Result<CallShape> call_shape(const Task& t, const Config& c);

// Fills an in/inout buffer with the param's distribution from `seed` (same seed, same bytes).
void fill_input(const Param& p, const Config& c, uint64_t seed, BufferView out);

enum class Prefill { Nan, Pattern };
// Pre-fills an out buffer: NaN for floats / 0x5A bytes for integers (Nan), or 0xA5 bytes (Pattern).
void prefill_output(BufferView out, Prefill kind);

// A deterministic per-(seed, stream) 64-bit generator (splitmix64).
class Rng {
 public:
  explicit Rng(uint64_t seed, uint64_t stream = 0) : s_(seed ^ (stream * 0x9E3779B97F4A7C15ull) ^ 0xD1B54A32D192ED03ull) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t s_;
};

}  // namespace cudaperf::task

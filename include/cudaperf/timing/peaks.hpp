// Measured peaks of the visible GPU: memory bandwidth (a device-to-device copy, a read-only and a
// write-only stream) and FMA throughput (fp32, fp64). Measured once per device (name, SM count,
// clocks, driver) and cached as JSON; the roofline floor and fraction of measured kernels are
// computed against these.
#pragma once
#include <filesystem>
#include <string>
#include <variant>

#include "cudaperf/task/task.hpp"

namespace cudaperf::timing {

struct MeasuredPeaks {
  std::string device;             // the identity the cache is keyed on
  double copy_bytes_per_s = 0;    // cudaMemcpy device to device: bytes read + written per second (median of 10)
  double read_bytes_per_s = 0;    // a read-only float4 stream (a sum nobody keeps)
  double write_bytes_per_s = 0;   // a write-only fill (cudaMemset)
  double fp32_flops_per_s = 0;    // independent FMA chains, 2 FLOP per FMA (median of 10)
  double fp64_flops_per_s = 0;
  std::string measured_at;        // UTC time of the measurement
  bool from_cache = false;
  // The bandwidth roofline floors use: the fastest of the three streams. A copy alone is not an
  // upper bound (on an H100 a write-only fill ran 10 % faster than the copy, 2026-12-05), and the
  // floor must be one: no honest kernel may move its bytes faster than this.
  double memory_bytes_per_s() const;
};

// Reads <cache_dir>/peaks/<device key>.json, or measures in a forked child (the caller never
// initialises CUDA) and writes it. `remeasure` ignores the cache. Error text when there is no GPU
// or the measurement fails.
// A successful result is kept for the life of the process (the device does not change), so
// callers in a loop (the service's workers) do not fork a child per call.
std::variant<MeasuredPeaks, std::string> device_peaks(const std::filesystem::path& cache_dir, bool remeasure = false);

// The peaks roofline floors are computed against: the measured ones, else the datasheet's
// (task::Peaks defaults). `note` says which, with the values or why measuring failed.
task::Peaks roofline_peaks(const std::filesystem::path& cache_dir, std::string& note);

}  // namespace cudaperf::timing

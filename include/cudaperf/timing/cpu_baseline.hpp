// Timing the sequential C reference (built at -O3) on one CPU core: the baseline of "speedup vs C".
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "cudaperf/task/task.hpp"
#include "cudaperf/timing/stats.hpp"

namespace cudaperf::timing {

struct CpuBaseline {
  std::optional<Measurement> ms;  // per-call times in milliseconds, when it finished
  std::string error;              // why not ("one call took longer than 60 s", a crash, ...)
};

// Runs the baseline shared object on `config` in a forked child pinned to one core, with fresh
// inout contents before every call (outside the timed span). `timeout_s` bounds the whole run.
CpuBaseline time_cpu_baseline(const task::Task& t, const std::filesystem::path& baseline_so, const task::Config& config,
                              uint64_t seed, const StoppingRule& rule, double timeout_s = 60);

}  // namespace cudaperf::timing

// Advice for task authors that `tasks validate` prints as WARN lines (they never fail a task):
// a perf config too small to time well, a loose tolerance, a slow reference.
#pragma once
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::verify {

struct WarningLimits {
  double min_perf_floor_s = 50e-6;   // a perf config whose roofline floor is under this times badly
  double max_tolerance = 0.1;        // rtol or atol above this accepts wrong answers
  double max_reference_call_s = 3;   // a reference call slower than this (CPU gates, --c-baseline)
};

// Static warnings: from task.toml alone (cost model at the perf configs, tolerance).
std::vector<Diagnostic> task_warnings(const task::Task& t, const WarningLimits& lim = {});

// A warning when the reference's calls on the CPU gates averaged over `max_reference_call_s`
// (`seconds` spent on `calls` calls); none otherwise.
std::vector<Diagnostic> reference_time_warnings(const task::Task& t, double seconds, int calls,
                                                const WarningLimits& lim = {});

}  // namespace cudaperf::verify

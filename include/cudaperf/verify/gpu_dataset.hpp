// The C-to-CUDA half of `tasks check-gpu`: every task under a root, every source built first (in
// parallel, cached), then each task's implementations checked on the GPU (verify/gpu_check.hpp),
// with a per-implementation summary; the caller prints, records and writes JSON from the outcomes.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::verify {

struct GpuDatasetOptions {
  bool perf = true;             // also run and time the perf configs
  unsigned jobs = 0;            // parallel builds; 0: one per core
  timing::StoppingRule timing{};
};

// One implementation over its task's configs: small configs ok of total, the perf median, and the
// first problem (a small config's, else the perf config's).
struct ImplSummary {
  std::string impl;
  int ok = 0, total = 0;
  double perf_ms = -1;    // -1: no ok perf result
  double naive_ms = -1;   // the task's naive perf median (-1: none)
  std::string note;       // empty when every config is ok
  bool failed = false;    // a small config not ok, none run, or the perf config not ok
};

struct TaskOutcome {
  const task::Task* task = nullptr;
  bool reference_built = false;      // false: nothing ran (results and impls empty)
  std::vector<GpuImplResult> results;
  std::vector<ImplSummary> impls;    // one per t.impls, in order
  double seconds = 0;
};

struct GpuDatasetRun {
  std::vector<task::Task> tasks;     // the tasks that loaded (others are reported on stderr)
  size_t failures = 0;               // implementations that failed, plus references that did not build
  double compile_s = 0;
  size_t sources = 0, cached = 0;    // sources built (references and impls), from the cache
  std::vector<double> cold_s, cached_s;  // build seconds per CUDA source: cold builds, cache hits
  GpuCheckStages stages;
};

// Loads every task under `root` (a task folder or a folder of them), builds every source, then checks
// the tasks one by one; `on_task` sees each outcome as soon as it is known.
GpuDatasetRun check_gpu_dataset(const std::filesystem::path& root, const GpuDatasetOptions& o,
                                const std::function<void(const TaskOutcome&)>& on_task);

// The summary of one implementation's results (results of impl "*" count for every impl).
ImplSummary summarize_impl(const task::Task& t, const std::string& impl, const std::vector<GpuImplResult>& results);

}  // namespace cudaperf::verify

// Runs a task's CUDA implementations on the GPU against its C reference (dataset self-check).
// Each task runs in a forked child that owns the CUDA context, so a crashing or hanging
// implementation is recorded, the child replaced, and the rest of the task still checked.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"

namespace cudaperf::verify {

struct GpuImplResult {
  std::string impl;
  std::string config;
  std::string status;   // ok, wrong_answer, runtime_error, out_of_bounds, input_mutated, crash, timeout, compile_error
  std::string message;
  double median_ms = -1;  // perf configs only
  double min_ms = -1;
  int samples = 0;
};

struct GpuCheckOptions {
  bool perf = true;           // also run and time the perf configs (trusted = best non-naive impl)
  uint64_t seed = 0x6a09e667f3bcc908ull;
  double task_timeout_s = 300;
  int timed_samples = 5;
  std::string trusted;        // impl whose perf-size output is the reference; empty: first non-naive
};

// Checks one task; `artifacts[i]` is the built shared object of t.impls[i] (empty if the build failed).
std::vector<GpuImplResult> gpu_check_task(const task::Task& t, const std::filesystem::path& reference_so,
                                          const std::vector<std::filesystem::path>& artifacts,
                                          const GpuCheckOptions& o);

// A one-line description of the visible device, or why there is none.
std::string describe_gpu(bool& available);

}  // namespace cudaperf::verify

// Validation of task folders: load, build every source against the generated declarations, run
// the CPU gates and the null-solution battery. Used by `cudaperf tasks validate`.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/cpu_gates.hpp"

namespace cudaperf::verify {

struct TaskCheck {
  std::filesystem::path dir;
  std::optional<task::Task> task;         // set when task.toml and the folder loaded
  std::vector<Diagnostic> problems;       // empty when the task passed every check
  std::vector<Diagnostic> warnings;       // advice that fails nothing (verify/task_warnings.hpp)
  std::vector<NullResult> nulls;          // the battery's outcome (empty when not run)
  bool cooperative = false;               // some impl uses shared memory, shuffles or atomics
  int sources_built = 0;
};

struct CheckOptions {
  bool compile = true;     // build reference and impls (nvcc); false: format checks only
  bool cpu_gates = true;   // run references and the null battery (needs compile)
  unsigned jobs = 0;       // 0: hardware concurrency
  uint64_t seed = 0x5eed2026;
  double reference_timeout_s = 60;  // per reference run
  std::function<void(const std::string&)> progress;  // optional progress lines
};

struct DatasetCheck {
  std::vector<TaskCheck> tasks;
  std::vector<Diagnostic> problems;  // problems not tied to a task (e.g. nothing found)
  bool ok() const;
  size_t categories() const;
};

// `root` may be a task folder or a folder containing task folders.
DatasetCheck check_tasks(const std::filesystem::path& root, const CheckOptions& o);

// True when the source uses thread cooperation (shared memory, warp shuffles/votes, atomics).
bool uses_cooperation(const std::string& cuda_source);

}  // namespace cudaperf::verify

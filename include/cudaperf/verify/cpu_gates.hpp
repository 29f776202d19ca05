// CPU-side verification of a task: running the C reference in an isolated child, comparing
// outputs with the task's tolerance, and the null-solution battery.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/task/inputs.hpp"
#include "cudaperf/task/task.hpp"

namespace cudaperf::verify {

// One call's host buffers, indexed like task.params (empty vectors for non-buffer params).
struct HostCall {
  task::CallShape shape;
  std::vector<std::vector<unsigned char>> buffers;
  task::BufferView view(const task::Task& t, size_t i);
  task::BufferView view(const task::Task& t, size_t i) const;
};

// Generates inputs from `seed` and pre-filled outputs for one config.
Result<HostCall> make_call(const task::Task& t, const task::Config& c, uint64_t seed, task::Prefill prefill);

// Calls a function pointer with the task's parameters through libffi; `stream` appends the
// trailing cudaStream_t argument when set.
void invoke(void* fn, const task::Task& t, const std::vector<void*>& pointers, const task::CallShape& shape,
            std::optional<void*> stream = std::nullopt);

// Runs the reference shared object on `call` in a forked child (crash/hang safe); updates the
// out/inout buffers of `call` in place. Returns an error message on failure.
std::optional<std::string> run_reference(const task::Task& t, const std::filesystem::path& reference_so, HostCall& call,
                                         double timeout_s = 60);

struct Comparison {
  bool ok = true;
  int64_t mismatches = 0;
  int64_t first = -1;
  double expected = 0, got = 0;
  std::string message;  // empty when ok: "y[17]: expected 1.5, got nan (3 of 100 elements differ)"
};
Comparison compare(const task::BufferView& expected, const task::BufferView& got, double rtol, double atol,
                   const std::string& name);
// Compares every out/inout buffer of two calls.
Comparison compare_outputs(const task::Task& t, const HostCall& expected, const HostCall& got);

struct NullResult {
  std::string name;         // zeros, constant, first_input, tiny_answer, untouched
  int configs_tested = 0;
  int configs_rejected = 0;
  bool rejected() const { return configs_tested > 0 && configs_rejected > 0; }
};

struct GateReport {
  std::vector<std::string> problems;   // empty when every gate passed
  std::vector<NullResult> nulls;
  int configs_run = 0;
};

// Reference runs on every non-perf config (twice, different pre-fills: output must be bitwise
// identical and inputs untouched), then the null-solution battery against the task's tolerance.
GateReport run_cpu_gates(const task::Task& t, const std::filesystem::path& reference_so, uint64_t seed,
                         double reference_timeout_s = 60);

}  // namespace cudaperf::verify

// The trusted measurer (internal to verify/): the process that owns every number of a GPU verdict.
// It is forked from the supervisor before any candidate code exists, creates its own CUDA context,
// and starts one launcher worker per implementation (sandbox/launcher_process.hpp). The worker
// only launches; the measurer allocates and fills every buffer it hands out (through CUDA IPC),
// times the calls with its own events around an IPC-event handshake, compares outputs in its own
// context and decides each config's status. Threat model and protocol: docs/threat-model.md.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/file_lock.hpp"
#include "cudaperf/verify/cpu_gates.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::verify {

// One configuration as the supervisor prepared it (inherited by the measurer through fork).
struct HostConfig {
  const task::Config* cfg = nullptr;
  bool perf = false;
  task::CallShape shape;
  std::vector<size_t> bytes;         // per param (0 for non-buffers)
  HostCall inputs;                   // small: the inputs; perf: the structured inputs (the rest is drawn per call)
  std::optional<HostCall> expected;  // small configs only (the C reference's outputs)
};

struct MeasurerJob {
  const task::Task* task = nullptr;
  std::vector<HostConfig>* configs = nullptr;
  std::vector<std::filesystem::path> artifacts;  // per t.impls
  std::vector<size_t> order;                     // which impls, in which order
  GpuCheckOptions options;
  task::Peaks peaks;                             // this device's measured peaks (roofline floor)
  std::optional<size_t> trusted;                 // impl already known good at every small config
  std::function<void(const struct MeasurerOutcome&)> on_progress;  // after each implementation
};

struct MeasurerOutcome {
  std::vector<GpuImplResult> results;
  GpuCheckStages stages;
  size_t finished = 0;              // entries of `order` done
  std::optional<size_t> trusted;    // the impl whose perf output is the reference, once known
  bool stuck = false;               // the measurer's stream could not be recovered: start a new one
  std::string fatal;                // set when nothing could run (no device, ...)
};

// One config's result row.
GpuImplResult config_result(std::string impl, std::string config, std::string status, std::string message);

// Whether the measurer draws this input afresh on the GPU for every perf call (element-wise
// distributions); the others come from the supervisor's draw.
bool drawn_on_device(const task::Param& p);

// Runs in the measurer process. Results are appended to `out` as each implementation finishes.
void run_measurer(const MeasurerJob& job, MeasurerOutcome& out);

}  // namespace cudaperf::verify

// One line of a `tasks check-gpu --records` file: one implementation at one config, of either task
// kind, in one schema (rank/ and bench/ read these files). What every line of a run shares (device,
// toolkit, date) is in RecordRun; what only one kind measures is in `extra`.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::verify {

struct RecordRun {
  std::string device, toolkit, date;
};

struct Record {
  std::string task, category, kind, impl, config;  // kind: "c2cuda" or "torch2cuda"
  bool perf = false;
  std::string status, message;
  double median_ms = -1, min_ms = -1, q1_ms = -1, q3_ms = -1, rel_stdev = -1;
  int samples = 0, timed_calls = 0, discarded = 0;
  double sm_clock_mhz = -1;
  // c2cuda: stop_reason, sm_clock_max_mhz, handshake_ms, window_median_ms, pre_window_ms,
  // roofline_floor_ms, peaks; torch2cuda: mode, build, stages, eager_ms, compile_ms.
  nlohmann::json extra = nlohmann::json::object();
};

nlohmann::json record_json(const Record& r, const RecordRun& run);

// A C-to-CUDA result of gpu_check_task: `floor_ms` the config's roofline floor (perf configs; -1
// when unknown), `peaks` which peaks it used.
Record c2cuda_record(const task::Task& t, const GpuImplResult& r, double floor_ms, const std::string& peaks);

}  // namespace cudaperf::verify

// The dynamic half of the structural analysis (DESIGN §5): Nsight Compute counters per kernel.
//
// `cudaperf analyze FILE.cu --task ID --dynamic` runs `ncu --clock-control none` over
// `cudaperf profile-target`, which runs the candidate once at one task configuration in its own
// process, and parses ncu's CSV into per-kernel values beside the static ones. The candidate must
// pass the link allowlist first; under ncu it runs without the seccomp filter (the profiler talks
// to its target over sockets), so --dynamic is for code that already passed `eval`.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::analysis {

// The metrics collected (DESIGN §5: sectors per request, bytes per sector, occupancy, FLOP
// counters, DRAM bytes, bank conflicts, barrier stalls, launch parameters, duration).
const std::vector<std::string>& ncu_metrics();

// One kernel launch in ncu's CSV output (`--csv --print-units base`, one row per metric).
struct NcuLaunch {
  std::string id, process, stream, kernel;
  std::map<std::string, double> values;  // metric name -> value in base units
};
// Parses the CSV table out of ncu's output (profiler lines before it are skipped). Launches in
// order of their ID. Error when there is no table.
Result<std::vector<NcuLaunch>> parse_ncu_csv(const std::string& text);

// "void ns::kern<256>(float*, int)" -> "ns::kern<256>": what static and ncu names are matched on.
std::string kernel_base_name(const std::string& demangled);

// Values of one kernel over its launches: counters summed, percentages and launch parameters
// averaged, and the derived ratios (sectors per request, FLOPs by precision, DRAM bytes).
nlohmann::json derive_kernel_metrics(const std::vector<const NcuLaunch*>& launches);

// The profiling target: runs each implementation once at `config` (empty: the largest non-perf
// config) on its own stream in this process and writes one JSON line per item (task, impl,
// config, stream id, status, cost-model FLOPs and bytes) to `out`. Exit code 0 when all ran.
struct ProfileItem {
  task::Task task;
  std::string impl;
  std::filesystem::path so;
};
int run_profile_target(const std::vector<ProfileItem>& items, const std::string& config, std::ostream& out);

// The config profile-target uses for a task when none is named.
const task::Config* profile_config(const task::Task& t, const std::string& name);

}  // namespace cudaperf::analysis

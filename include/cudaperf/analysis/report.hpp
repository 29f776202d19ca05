// Per-kernel structural report: the four features (coalescing, occupancy, arithmetic intensity,
// synchronisation) as scores in [0, 1] with their raw numbers and one-line findings, plus the
// task's roofline. Every formula is in docs/analysis.md.
#pragma once
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/analysis/census.hpp"
#include "cudaperf/analysis/coalescing.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::analysis {

// ------------------------------------------------------------------------------------------------
// Roofline.

// Device peaks. The defaults are round H200 figures, NOT measured on the box (the JSON says so):
// a device-to-device copy reaches about 4.0e12 B/s and non-tensor FP32 FMA throughput is about
// 6.0e13 FLOP/s (FP64 half of that). Replace them with measured values when they exist.
struct DevicePeaks {
  double bandwidth_bytes_per_s = 4.0e12;
  double fp32_flops_per_s = 6.0e13;
  double fp64_flops_per_s = 3.0e13;
  bool measured = false;  // false: the defaults above (or values given on the command line)

  double flops_per_s(bool fp64) const { return fp64 ? fp64_flops_per_s : fp32_flops_per_s; }
  // Ridge point: the intensity (FLOP/byte) where the memory and compute roofs meet.
  double ridge(bool fp64) const { return flops_per_s(fp64) / bandwidth_bytes_per_s; }
};

struct RooflinePoint {
  double flops = 0, bytes = 0;
  std::optional<double> intensity;     // flops / bytes; nullopt when bytes == 0
  double floor_s = 0;                  // max(flops / peak_flops, bytes / peak_bw)
  std::string bound;                   // "memory" or "compute": which term gives floor_s
  std::optional<double> measured_s;    // a measured kernel time, when one was given
  std::optional<double> fraction;      // floor_s / measured_s = achieved / attainable performance
};

// The roofline at one (flops, bytes) point; fraction only when measured_s > 0.
RooflinePoint roofline_point(double flops, double bytes, const DevicePeaks& peaks, bool fp64,
                             std::optional<double> measured_s = std::nullopt);
// The task's cost model evaluated at a config; an error message when the expressions fail.
Result<RooflinePoint> task_roofline(const task::Task& t, const task::Config& c, const DevicePeaks& peaks,
                                    std::optional<double> measured_s = std::nullopt);

// ------------------------------------------------------------------------------------------------
// Scores in [0, 1] (nullopt: not applicable / nothing known).

struct CoalescingSummary {
  int known = 0, unknown = 0;
  std::optional<double> score;  // mean over known accesses of min(1, ideal / actual sectors)
};
CoalescingSummary coalescing_score(const std::vector<GlobalAccess>& accesses);

// Counted FLOPs of a census: fp32/fp64 add + mul + 2 x fma, plus half-precision ops (once each).
double counted_flops(const Census& c);
// Bytes of global loads and stores per execution of each instruction once.
double counted_global_bytes(const Census& c);
struct IntensitySummary {
  double flops = 0, bytes = 0;
  std::optional<double> counted;  // flops / bytes
  double target = 0;              // min(ridge, task intensity) or the ridge without a task
  std::string target_source;      // "task" or "ridge"
  std::optional<double> score;    // min(1, counted / target)
};
IntensitySummary intensity_score(const Census& c, const DevicePeaks& peaks, bool fp64,
                                 std::optional<double> task_intensity);

struct SyncPenalty {
  std::string reason;
  double amount = 0;
};
struct SyncSummary {
  double score = 1;
  std::vector<SyncPenalty> penalties;
};
SyncSummary sync_score(const Census& c);

// ------------------------------------------------------------------------------------------------
// The analyze verb.

struct AnalyzeOptions {
  std::string task_id;            // optional: cost model from the task, declaration pre-included
  std::filesystem::path task_root;
  bool dynamic = false;           // run under Nsight Compute (needs a GPU)
  int block_size = 0;             // threads per block for kernels without .reqntid/.maxntid (beats the host
                                  // launch scan); 0: from the host launch code, else assume 256
  int dynamic_smem = -1;          // dynamic shared memory per block at launch; -1: from the host launch code, else 0
  DevicePeaks peaks;
  std::optional<double> measured_ms;  // a measured time for the roofline fraction (with --task)
  std::string config;             // the task config measured_ms belongs to; "": the first perf config
  std::chrono::milliseconds timeout{180000};  // per nvcc invocation
};

enum class AnalyzeFailure { None, Usage, Compile };

// Builds FILE.cu (PTX with -lineinfo, then ptxas -v on that PTX) and analyses every kernel. On
// failure, *why (when given) says whether the input was wrong (Usage: missing file, unknown task)
// or the file did not compile (Compile: the diagnostics carry nvcc's error lines).
Result<nlohmann::json> analyze_file(const std::filesystem::path& cu, const AnalyzeOptions& o,
                                    AnalyzeFailure* why = nullptr);

// The human-readable report: the same facts as the JSON.
std::string render_text(const nlohmann::json& report);

// Dynamic metrics (Nsight Compute) for the kernels of a report (src/analysis/dynamic.cpp): needs
// o.task_id; runs `ncu` over `cudaperf profile-target` and returns {config, ncu, kernels: [...]}
// with each static kernel's measured values (by name), or why it could not.
Result<nlohmann::json> dynamic_metrics(const std::filesystem::path& cu, const nlohmann::json& static_report,
                                       const AnalyzeOptions& o);
// Whether this machine has a usable GPU (nvidia-smi -L lists one).
bool gpu_present();

}  // namespace cudaperf::analysis

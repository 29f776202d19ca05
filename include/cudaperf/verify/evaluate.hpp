// Evaluating one candidate against a task: build and link checks on any machine, then (with a
// GPU) every configuration against the C reference and timing against the task's naive impl.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::verify {

struct ConfigResult {
  std::string config;
  bool perf = false;
  std::string status;  // as GpuImplResult::status
  std::string message;
  double median_ms = -1, min_ms = -1, naive_median_ms = -1;
  double q1_ms = -1, q3_ms = -1, rel_stdev = -1;
  int samples = 0;
  int discarded = 0, timed_calls = 0;  // throttled samples dropped; timed calls (each output checked)
  double sm_clock_mhz = -1;
  double roofline_floor_ms = -1;   // perf configs: cost model over the measured device peaks
  double roofline_fraction = -1;   // floor / median (1 = at the roofline)
  double c_baseline_ms = -1;       // sequential C at -O3 on one core, same run (--c-baseline)
  std::string c_baseline_error;
};

struct EvalReport {
  std::string task_id, candidate;
  Verdict verdict = Verdict::Ok;    // TaskError: the task or the engine failed, not the candidate
  std::string message;              // why, in one or a few lines
  bool gpu_stages_run = false;
  bool host_probe_run = false;      // the confined host-side run (any machine without a GPU)
  std::string device;               // GPU description, or why there is none
  compile::CandidateBuild build;
  std::vector<ConfigResult> configs;
  std::optional<double> speedup_vs_naive;  // geometric mean over perf configs
  std::optional<double> speedup_vs_c;      // geometric mean over perf configs with a C baseline
  std::string trusted_impl;                // the dataset impl used as reference at perf sizes
  std::string peaks;                       // which peaks the roofline used (measured, cached, or why not)
  GpuCheckStages run_stages;               // seconds per stage of the GPU run it was part of (a batch shares one)
  double run_wall_s = 0;                   // that run's wall time (reference build, references, workers, checks)
};

// Runs the candidate's host launcher once in a confined child with unmapped stand-ins for the
// device pointers and no GPU work expected to succeed: host-side crashes, hangs and forbidden
// system calls show up here on any machine. ok: verdict Ok; else the verdict and why.
struct HostProbe {
  Verdict verdict = Verdict::Ok;
  std::string message;
};
HostProbe probe_host_side(const task::Task& t, const std::filesystem::path& candidate_so, double timeout_s = 10);

struct EvalOptions {
  bool run_gpu = true;      // false: CPU-side checks only
  bool c_baseline = false;  // also time the C reference at -O3 on one core at every config
  bool secret_seed = true;  // inputs from a fresh random seed (false: gpu.seed, for reproducing a run)
  GpuCheckOptions gpu = [] {
    GpuCheckOptions g;
    g.impl_timeout_s = 120;  // a candidate that hangs costs at most this
    g.call_timeout_s = 10;   // and one call at most this (the slowest dataset call takes under 1 s)
    return g;
  }();
};

EvalReport evaluate_candidate(const task::Task& t, const std::filesystem::path& candidate, const EvalOptions& o = {});

// Several candidates of one task in one GPU run: the inputs, the C reference and the baselines
// (naive, trusted) are prepared and measured once for all of them, each candidate still in its
// own confined worker. Reports in the order of `candidates`.
std::vector<EvalReport> evaluate_candidates(const task::Task& t, const std::vector<std::filesystem::path>& candidates,
                                            const EvalOptions& o = {});

}  // namespace cudaperf::verify

// Evaluation of torch2cuda candidates. Per run the supervisor (this code, no torch) runs
//   1. the static guards (static_guards.hpp),
//   2. a build worker per candidate that misses the cache (load_inline arguments resolved statically,
//      built confined; the candidate's Python never runs there),
//   3. the reference worker (trusted): inputs from a secret seed sent over its stdin, expected
//      outputs kept in its memory; it measures every candidate through CUDA IPC (torch_measure.py),
//   4. each candidate worker in turn (untrusted, seccomp after CUDA init), which only launches,
//   5. the eager and torch.compile baselines, once per run, on the same inputs.
// Every number in a report comes from the reference's events; the candidate's channel is control flow.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/timing/stats.hpp"
#include "cudaperf/torch2cuda/static_guards.hpp"
#include "cudaperf/verify/evaluate.hpp"
#include "cudaperf/verify/record.hpp"

namespace cudaperf::torch2cuda {

// The evaluation modes of docs/torch2cuda.md (TorchEvalOptions::mode): "strict", "kernelbench".
inline const std::vector<std::string> kTorchModes = {"strict", "kernelbench"};

struct TorchEvalOptions {
  bool run_gpu = true;
  bool baselines = true;            // time eager PyTorch and torch.compile in the same run
  double impl_timeout_s = 120;      // the candidate worker, all configs
  double call_timeout_s = 10;       // one call (watchdog in the worker)
  double build_timeout_s = 900;     // nvcc through load_inline, cold
  double reference_timeout_s = 600; // reference worker, each phase
  uint64_t seed = 0;                // 0: a fresh secret seed from the OS
  int trials = 3;                   // fresh-input calls per non-perf config
  timing::StoppingRule timing{};
  // More runs follow in this process (check-gpu over many tasks): while this run's baselines are
  // timed, a spare worker imports torch, and the next run's reference starts from it.
  bool keep_spare = false;
  // "strict": eval(), fp32 without TF32, weights copied by name, hidden inputs, randomised identity
  // parameters and scalars; "kernelbench": KernelBench's semantics (training mode, PyTorch's TF32
  // defaults, ModelNew(*get_init_inputs()) built under the reference's seed). docs/torch2cuda.md.
  std::string mode = "strict";
  // flock(2)ed from the reference's start to the last baseline (builds and static guards run
  // outside it), so evaluations sharing a GPU take turns; empty: CUDAPERF_GPU_LOCK, else none.
  std::string gpu_lock;
};

struct TorchEvalReport {
  verify::EvalReport base;  // verdict, message, configs (status, timings), device
  std::vector<StaticFinding> findings;
  std::map<std::string, double> eager_ms, compile_ms;  // per perf config (median)
  std::map<std::string, std::string> baseline_errors;
  std::optional<double> speedup_vs_eager, speedup_vs_compile;  // geometric mean over perf configs
  nlohmann::json build = nlohmann::json::object();  // extensions, cached or cold, seconds
  nlohmann::json stages = nlohmann::json::object(); // seconds per stage: static, build, reference (shared in a
                                                    // batch), candidate, compare, baselines (shared)
  std::string sandbox;
  std::string mode = "strict";                        // the evaluation mode it was judged in
  nlohmann::json hidden = nlohmann::json::object();   // strict: the input families kept, what was randomised
  nlohmann::json to_json() const;
};
// One config of one impl's report as a line of check-gpu's records (verify/record.hpp).
verify::Record torch_record(const task::TorchTask& t, const std::string& impl, const verify::ConfigResult& c, const TorchEvalReport& rep);
TorchEvalReport evaluate_torch_candidate(const task::TorchTask& t, const std::filesystem::path& candidate,
                                         const TorchEvalOptions& o);
// Several candidates of one task in one run: one reference worker (one secret seed, one set of inputs
// and expected outputs, one set of baselines) and, in turn, each candidate in its own confined worker.
// Reports in the order of `candidates`.
std::vector<TorchEvalReport> evaluate_torch_candidates(const task::TorchTask& t,
                                                       const std::vector<std::filesystem::path>& candidates,
                                                       const TorchEvalOptions& o);

}  // namespace cudaperf::torch2cuda

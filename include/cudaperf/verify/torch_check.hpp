// PyTorch-to-CUDA (torch2cuda) tasks: validation, static guards, and evaluation of a candidate
// through the Python worker (python/cudaperf/torch_worker.py). docs/torch2cuda.md is the contract.
//
// Process model: the supervisor (this code) never imports torch. Per evaluation it runs
//   1. the static guards (python3 -m cudaperf.torch_static, standard library only),
//   2. a build worker (load_inline arguments resolved statically, built into the cache per
//      content hash; the candidate's Python never runs there),
//   3. the reference worker (trusted): inputs from a secret seed sent over its stdin, expected
//      outputs kept in its memory; it waits while
//   4. the candidate worker (untrusted, seccomp after CUDA init) runs, times and writes outputs;
//   5. the reference worker compares those outputs and times the eager and torch.compile baselines.
// Results travel as JSON lines over a pipe per worker (capped; malformed or duplicated lines from
// the candidate are hack_suspected); tensors as files in a private exchange folder.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/timing/stats.hpp"
#include "cudaperf/verify/evaluate.hpp"

namespace cudaperf::verify {

// Where the Python side lives and how it is run (environment: CUDAPERF_PYTHON, CUDAPERF_PYTHON_DIR,
// CUDAPERF_TORCH_WORKER (tests: a stand-in worker script), CUDAPERF_CONFINE_LIB,
// CUDAPERF_TORCH_TEST_MODE=1 (tests only: device "cpu", pure-torch candidates, no guards)).
struct TorchRuntime {
  std::string python = "python3";
  std::filesystem::path python_dir;   // holds the cudaperf package
  std::string worker;                 // a script path, or "" for -m cudaperf.torch_worker
  std::filesystem::path confine_lib;  // libcudaperf_confine.so ("" when not found)
  bool test_mode = false;
};
TorchRuntime torch_runtime();
// Whether `import torch` works with the runtime's interpreter; why not otherwise.
bool torch_importable(const TorchRuntime& rt, std::string& why);

struct StaticFinding {
  std::string rule;
  int line = 0;
  std::string message;
};
struct TorchStatic {
  std::string error;            // the check could not run, or the file does not parse ("syntax: ...")
  bool syntax_error = false;
  std::vector<StaticFinding> findings;
  std::vector<std::string> unresolved;  // load_inline calls the build step cannot resolve
  std::vector<std::string> kernels;     // __global__ names in the candidate's sources
  nlohmann::json extensions = nlohmann::json::array();  // load_inline calls; with `salt`: key and module each
};
// `salt` (the torch toolchain's, see torch_importable): also give each extension its cache key.
TorchStatic torch_static_check(const std::filesystem::path& candidate, const TorchRuntime& rt, const std::string& salt = "");

// ---- validation (`cudaperf tasks validate` on torch2cuda folders)
struct TorchTaskCheck {
  std::filesystem::path dir;
  std::optional<task::TorchTask> task;
  std::vector<Diagnostic> problems;
  std::map<std::string, std::pair<int, int>> nulls;  // null -> (configs rejected, configs tested)
  std::string battery;  // "run", or "skipped: why"
};
struct TorchCheckOptions {
  bool battery = true;  // run the reference and the null battery when torch is importable
  unsigned jobs = 0;
  double reference_timeout_s = 300;
  std::string mode = "strict";  // evaluation mode of the battery: "strict" or "kernelbench" (docs/torch2cuda.md)
};
// "strict" or "kernelbench" (the evaluation modes of docs/torch2cuda.md); false for anything else.
bool valid_torch_mode(const std::string& mode);
std::vector<TorchTaskCheck> check_torch_tasks(const std::filesystem::path& root, const TorchCheckOptions& o);

// ---- the result channel (exposed for tests)
struct ChannelParse {
  std::vector<nlohmann::json> events;
  std::string forged;  // non-empty: why the channel cannot be trusted (malformed, duplicated, overflow)
};
constexpr size_t kChannelCap = 1 << 20;
// `strict`: the candidate's channel (every line must be a known event, each config reported once).
ChannelParse parse_channel(const std::string& bytes, bool overflowed, bool strict);

// ---- evaluation
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
};

struct TorchEvalReport {
  EvalReport base;  // verdict, message, configs (status, timings), device
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
TorchEvalReport evaluate_torch_candidate(const task::TorchTask& t, const std::filesystem::path& candidate,
                                         const TorchEvalOptions& o);
// Several candidates of one task in one run: one reference worker (one secret seed, one set of inputs
// and expected outputs, one set of baselines) and, in turn, each candidate in its own confined worker.
// Reports in the order of `candidates`.
std::vector<TorchEvalReport> evaluate_torch_candidates(const task::TorchTask& t,
                                                       const std::vector<std::filesystem::path>& candidates,
                                                       const TorchEvalOptions& o);


// Builds the extensions of many candidates in parallel (`jobs` build workers, 0: one per core) into
// the cache, so that evaluations that follow start warm. One JSON per candidate: seconds,
// extensions, cache_hits, verdict (and message), or "skipped" when the static guards refuse it.
std::vector<nlohmann::json> prebuild_torch_candidates(const std::vector<std::filesystem::path>& candidates,
                                                      unsigned jobs = 0, double timeout_s = 900);

// Runs torch.compile of each task's reference at its perf configs once, in parallel (`jobs` workers),
// so the timed torch.compile baselines that follow find their graphs in the Inductor cache
// (TORCHINDUCTOR_CACHE_DIR, default <cudaperf cache>/inductor). Nothing is timed. One JSON per task.
std::vector<nlohmann::json> prewarm_torch_baselines(const std::vector<task::TorchTask>& tasks, unsigned jobs = 0,
                                                    double timeout_s = 900, const std::string& mode = "strict");

}  // namespace cudaperf::verify

// One candidate end to end: eval (verdict, timings, speedup) → analyze (structure) → ranker (rank)
// → reward. What `cudaperf reward` prints and what the reward service returns per job.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cudaperf/reward/reward.hpp"
#include "cudaperf/task/task.hpp"

namespace cudaperf::reward {

struct ScoreOptions {
  std::filesystem::path model;  // ranker model; missing file: no rank term (said in notes)
  double time_budget_s = 2;     // sampling per perf config
  std::string gpu_lock;         // flock(2)ed while the GPU runs (several evaluators per GPU); empty: none
};

// JSON: {verdict, verdict_message, final, device, speedup, reward: {total, gate, speed, structure,
// rank, tier, ...}, configs: [...], notes: [...], feedback}. Never throws; `final` is false when the
// GPU stages were skipped (no GPU) for a candidate that passed every CPU-side check.
nlohmann::json score_candidate(const task::Task& t, const std::filesystem::path& candidate, const RewardConfig& cfg,
                               const ScoreOptions& o);

// Several candidates of one task in one GPU run (verify::evaluate_candidates: inputs, reference
// and baselines shared); results in the order of `candidates`.
std::vector<nlohmann::json> score_candidates(const task::Task& t, const std::vector<std::filesystem::path>& candidates,
                                             const RewardConfig& cfg, const ScoreOptions& o);

// A result without a reward, for a verdict compute_reward refuses (task_error: the task or the engine
// failed, not the candidate): `j` loses "reward" and gets "tier": null, "error" (its "message"), the
// refusal in "notes" and a feedback that says the task failed. Both task kinds' scores use it.
void refuse_reward(nlohmann::json& j, const std::vector<Diagnostic>& why);

// torch2cuda candidates (ModelNew .py files) of one task in one run (torch2cuda::evaluate_torch_candidates,
// evaluation `mode` one of torch2cuda::kTorchModes): the same JSON with "kind": "torch2cuda", the speedup
// over eager PyTorch, "speedup_vs_compile", eager_ms / compile_ms per config, and no structure or rank term.
std::vector<nlohmann::json> score_torch_candidates(const task::TorchTask& t, const std::vector<std::filesystem::path>& candidates,
                                                   const RewardConfig& cfg, const ScoreOptions& o, const std::string& mode = "strict");

}  // namespace cudaperf::reward

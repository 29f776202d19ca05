// The reward service's score of torch2cuda candidates (score_candidate.hpp): the run of
// torch2cuda::evaluate_torch_candidates, the reward from its verdict and its speedup over eager
// PyTorch. The structure and rank terms are C-to-CUDA's (PTX of one .cu file); a ModelNew has none.
#include <fmt/format.h>

#include "cudaperf/reward/score_candidate.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"

namespace cudaperf::reward {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string torch_feedback(const torch2cuda::TorchEvalReport& rep) {
  const auto& ev = rep.base;
  std::string f = fmt::format("verdict: {}", verify::verdict_name(ev.verdict));
  if (!ev.message.empty()) {
    f += '\n';
    f += ev.message.substr(0, 2000);
  }
  for (const auto& c : ev.configs) {
    if (!c.perf || c.median_ms <= 0) continue;
    auto e = rep.eager_ms.find(c.config);
    f += fmt::format("\n{}: {:.4f} ms{}", c.config, c.median_ms,
                     e != rep.eager_ms.end() && e->second > 0 ? fmt::format(" ({:.2f}x eager PyTorch)", e->second / c.median_ms) : "");
  }
  if (rep.speedup_vs_compile) f += fmt::format("\nspeedup vs torch.compile: {:.2f}x", *rep.speedup_vs_compile);
  return f;
}

json torch_score(const task::TorchTask& t, const torch2cuda::TorchEvalReport& rep, const RewardConfig& cfg) {
  const auto& ev = rep.base;
  json configs = json::array();
  for (const auto& c : ev.configs) {
    auto e = rep.eager_ms.find(c.config);
    auto k = rep.compile_ms.find(c.config);
    configs.push_back({{"config", c.config}, {"perf", c.perf}, {"status", c.status}, {"message", c.message},
                       {"median_ms", c.median_ms}, {"q1_ms", c.q1_ms}, {"q3_ms", c.q3_ms}, {"samples", c.samples},
                       {"eager_ms", e != rep.eager_ms.end() ? json(e->second) : json(nullptr)},
                       {"compile_ms", k != rep.compile_ms.end() ? json(k->second) : json(nullptr)}});
  }
  RewardInputs in;
  in.verdict = ev.verdict;
  in.speedup = rep.speedup_vs_eager;
  auto b = compute_reward(in, cfg);
  json j = {{"task", t.id},
            {"kind", "torch2cuda"},
            {"run_stages", ev.gpu_stages_run ? rep.stages : json(nullptr)},
            {"verdict", verify::verdict_name(ev.verdict)},
            {"message", ev.message},
            {"final", !verify::pending_gpu(ev.verdict, ev.gpu_stages_run)},
            {"device", ev.device},
            {"mode", rep.mode},
            {"speedup", rep.speedup_vs_eager ? json(*rep.speedup_vs_eager) : json(nullptr)},
            {"speedup_vs_compile", rep.speedup_vs_compile ? json(*rep.speedup_vs_compile) : json(nullptr)},
            {"configs", configs},
            {"notes", json::array({"no structure or rank term: torch2cuda candidates are scored on correctness and speed"})}};
  if (!b) {  // task_error: an explicit error for this sample, no tier, no reward
    refuse_reward(j, b.errors());
    return j;
  }
  for (auto& n : b->notes) j["notes"].push_back(n);
  j["reward"] = b->to_json();
  j["feedback"] = torch_feedback(rep);
  return j;
}

}  // namespace

std::vector<json> score_torch_candidates(const task::TorchTask& t, const std::vector<fs::path>& candidates, const RewardConfig& cfg,
                                         const ScoreOptions& o, const std::string& mode) {
  torch2cuda::TorchEvalOptions eo;
  eo.timing.budget_s = o.time_budget_s;
  eo.gpu_lock = o.gpu_lock;
  eo.mode = mode;
  auto reps = torch2cuda::evaluate_torch_candidates(t, candidates, eo);
  std::vector<json> out;
  out.reserve(reps.size());
  for (const auto& r : reps) out.push_back(torch_score(t, r, cfg));
  return out;
}

}  // namespace cudaperf::reward

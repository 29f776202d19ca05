#include "cudaperf/reward/score_candidate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/rank/ranker.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/evaluate.hpp"

namespace cudaperf::reward {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Coalescing and occupancy averaged over the kernels, intensity the best kernel's, sync the
// worst kernel's (the ranker's heuristics).
std::map<std::string, std::optional<double>> feature_scores(const std::vector<float>& x) {
  const auto& n = rank::feature_names();
  auto at = [&](const char* name) -> std::optional<double> {
    float v = x[static_cast<size_t>(std::find(n.begin(), n.end(), name) - n.begin())];
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
  };
  return {{"coalescing", at("coalescing_mean")}, {"occupancy", at("occupancy_mean")},
          {"intensity", at("intensity_max")}, {"sync", at("sync_min")}};
}

// What a model needs to improve: the verdict and its reason, timings, the weakest structure.
std::string feedback(const verify::EvalReport& ev, const RewardBreakdown& b) {
  std::string f = fmt::format("verdict: {}", verify::verdict_name(ev.verdict));
  if (!ev.message.empty()) f += "\n" + ev.message.substr(0, 2000);
  if (ev.build.artifact.ok == false && !ev.build.artifact.diagnostics.empty())
    f += "\ncompiler:\n" + ev.build.artifact.diagnostics.substr(0, 3000);
  for (const auto& c : ev.configs)
    if (c.perf && c.median_ms > 0)
      f += fmt::format("\n{}: {:.4f} ms{}", c.config, c.median_ms,
                       c.naive_median_ms > 0 ? fmt::format(" ({:.2f}x the naive implementation)", c.naive_median_ms / c.median_ms) : "");
  if (b.structure_score) f += fmt::format("\nstructure score {:.2f} of 1", *b.structure_score);
  return f;
}

json score_from_eval(const task::Task& t, const fs::path& candidate, const verify::EvalReport& ev, const RewardConfig& cfg,
                     const ScoreOptions& o) {
  RewardInputs in;
  in.verdict = ev.verdict;
  in.speedup = ev.speedup_vs_naive;
  std::vector<std::string> notes;
  // Structure and rank only for code that built and linked (neither runs it).
  if (ev.build.artifact.ok && ev.build.link.ok()) {
    // One analysis of the candidate (cached) gives both the structure scores and its ranker features.
    auto cx = rank::extract_features(t, candidate, compile::default_cache_dir());
    if (cx) in.features = feature_scores(cx.value());
    else notes.push_back("analyze failed: " + cx.errors().front().message);
    auto m = rank::Model::load(o.model);
    if (!m) {
      notes.push_back("no rank term: " + m.errors().front().message);
    } else if (!cx) {
      notes.push_back("no rank term: " + cx.errors().front().message);
    } else {
      std::vector<std::vector<float>> xs = {cx.value()};
      for (const auto& im : t.impls) {
        auto x = rank::extract_features(t, im.path, compile::default_cache_dir());
        if (!x) {
          notes.push_back("no rank term: " + x.errors().front().message);
          xs.clear();
          break;
        }
        xs.push_back(x.value());
      }
      if (!xs.empty()) {
        auto s = m->score(xs);
        if (s) {
          in.rank = rank::share_beaten(s.value(), 0, 1);
        } else {
          notes.push_back("no rank term: " + s.errors().front().message);
        }
      }
    }
  }
  auto b = compute_reward(in, cfg);
  if (b)
    for (auto& n : b->notes) notes.push_back(n);
  bool pending = verify::pending_gpu(ev.verdict, ev.gpu_stages_run);
  json configs = json::array();
  for (const auto& c : ev.configs)
    configs.push_back({{"config", c.config}, {"perf", c.perf}, {"status", c.status}, {"message", c.message},
                       {"median_ms", c.median_ms}, {"q1_ms", c.q1_ms}, {"q3_ms", c.q3_ms}, {"samples", c.samples},
                       {"naive_median_ms", c.naive_median_ms}, {"roofline_fraction", c.roofline_fraction}});
  json run = nullptr;  // the GPU run's stages (shared by a batch): where an evaluation's time goes
  if (ev.gpu_stages_run) {
    const auto& st = ev.run_stages;
    run = {{"wall_s", ev.run_wall_s}, {"workers", st.workers}, {"retimed", st.retimed}};
    verify::for_each_stage(st, [&](const char* name, double v) { run[std::string(name) + "_s"] = v; });
  }
  json j = {{"task", t.id},
            {"run_stages", run},
            {"verdict", verify::verdict_name(ev.verdict)},
            {"message", ev.message},
            {"final", !pending},
            {"device", ev.device},
            {"speedup", ev.speedup_vs_naive ? json(*ev.speedup_vs_naive) : json(nullptr)},
            {"configs", configs},
            {"notes", notes}};
  if (!b) {
    refuse_reward(j, b.errors());
    return j;
  }
  j["reward"] = b->to_json();
  j["feedback"] = feedback(ev, b.value());
  return j;
}

verify::EvalOptions eval_options(const ScoreOptions& o) {
  verify::EvalOptions eo;
  eo.gpu.timing.budget_s = o.time_budget_s;
  eo.gpu.gpu_lock = o.gpu_lock;
  return eo;
}

}  // namespace

void refuse_reward(json& j, const std::vector<Diagnostic>& why) {
  const std::string message = j.value("message", "");
  j.erase("reward");
  j["tier"] = nullptr;
  j["error"] = message;
  if (!j.contains("notes") || !j["notes"].is_array()) j["notes"] = json::array();
  for (const auto& d : why) j["notes"].push_back("no reward: " + d.message);
  j["feedback"] = fmt::format("verdict: {} (the task itself failed, not your code: there is no verdict and no reward for this attempt)\n{}",
                              j.value("verdict", "task_error"), message.substr(0, 2000));
}

json score_candidate(const task::Task& t, const fs::path& candidate, const RewardConfig& cfg, const ScoreOptions& o) {
  return score_from_eval(t, candidate, verify::evaluate_candidate(t, candidate, eval_options(o)), cfg, o);
}

std::vector<json> score_candidates(const task::Task& t, const std::vector<fs::path>& candidates, const RewardConfig& cfg,
                                   const ScoreOptions& o) {
  auto evs = verify::evaluate_candidates(t, candidates, eval_options(o));
  std::vector<json> out(candidates.size());
  // The analysis (nvcc -ptx per candidate) side by side, like the builds.
  parallel_for(candidates.size(), std::min(8u, default_jobs()),
               [&](size_t i) { out[i] = score_from_eval(t, candidates[i], evs[i], cfg, o); });
  return out;
}

}  // namespace cudaperf::reward

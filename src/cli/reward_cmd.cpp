// `cudaperf reward --task ID --candidate FILE.cu [--config F] [--model F] [--json]`: eval +
// analyze + rank, and the reward of DESIGN §6 term by term (docs/reward.md).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/rank/ranker.hpp"
#include "cudaperf/reward/reward.hpp"
#include "cudaperf/verify/evaluate.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0, kExitNotOk = 1, kExitUsage = 2, kExitGpuSkipped = 3;

// The reward's feature scores from the analyzer report: coalescing and occupancy averaged over
// the kernels, intensity the best kernel's, sync the worst kernel's (as the ranker's heuristics).
std::map<std::string, std::optional<double>> feature_scores(const nlohmann::json& report) {
  auto x = rank::features_from_report(report);
  const auto& n = rank::feature_names();
  auto at = [&](const char* name) -> std::optional<double> {
    float v = x[static_cast<size_t>(std::find(n.begin(), n.end(), name) - n.begin())];
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
  };
  return {{"coalescing", at("coalescing_mean")}, {"occupancy", at("occupancy_mean")},
          {"intensity", at("intensity_max")}, {"sync", at("sync_min")}};
}

}  // namespace

void add_reward_command(CLI::App& app) {
  static std::string task_id, candidate, root, config = "config/reward.toml", model = "data/models/ranker.json";
  static bool json = false;
  auto* cmd = app.add_subcommand("reward", "The reward of one candidate, term by term: eval (verdict, speedup), "
                                           "analyze (structure) and the ranker (rank)");
  cmd->add_option("--task", task_id, "task id")->required();
  cmd->add_option("--candidate", candidate, "the candidate .cu file")->required();
  cmd->add_option("--root", root, "dataset folder (default: data/tasks)");
  cmd->add_option("--config", config, "reward weights and tiers (default config/reward.toml)");
  cmd->add_option("--model", model, "ranker model (default data/models/ranker.json; missing: no rank term)");
  cmd->add_flag("--json", json, "print JSON");
  cmd->add_option("--time-budget", g_time_budget_s, "seconds of sampling per perf config (default 2)")->check(CLI::Range(0.01, 3600.0));
  cmd->callback([] {
    g_action = [] {
      auto cfg = reward::load_reward_config(config);
      if (!cfg) {
        for (const auto& d : cfg.errors()) fmt::print(stderr, "cudaperf reward: {}\n", d.to_string());
        return kExitUsage;
      }
      fs::path r = root.empty() ? default_root() : fs::path(root);
      auto dir = task::find_task_by_id(r, task_id);
      auto t = dir ? task::load_task(*dir) : Result<task::Task>(Diagnostic{task_id, 0, 0, "no such task under " + r.string()});
      if (!t) {
        fmt::print(stderr, "cudaperf reward: {}\n", t.errors().front().to_string());
        return kExitUsage;
      }
      if (!fs::is_regular_file(candidate)) {
        fmt::print(stderr, "cudaperf reward: cannot read candidate '{}'\n", candidate);
        return kExitUsage;
      }
      // 1. The verifiable part.
      verify::EvalOptions eo;
      eo.gpu.timing.budget_s = g_time_budget_s;
      auto ev = verify::evaluate_candidate(t.value(), candidate, eo);
      reward::RewardInputs in;
      in.verdict = ev.verdict;
      in.speedup = ev.speedup_vs_naive;
      std::vector<std::string> notes;
      // 2. Structure and rank: only for code that built and linked (they never run it).
      bool built = ev.build.artifact.ok && ev.build.link.ok();
      if (built) {
        analysis::AnalyzeOptions ao;
        ao.task_id = task_id;
        ao.task_root = r;
        auto rep = analysis::analyze_file(candidate, ao);
        if (rep) in.features = feature_scores(rep.value());
        else notes.push_back("analyze failed: " + rep.errors().front().message);
        auto m = rank::Model::load(model);
        if (!m) {
          notes.push_back("no rank term: " + m.errors().front().message);
        } else {
          std::vector<std::vector<float>> xs;
          bool ok = true;
          for (const fs::path& f : [&] {
                 std::vector<fs::path> v = {candidate};
                 for (const auto& im : t->impls) v.push_back(im.path);
                 return v;
               }()) {
            auto x = rank::extract_features(t.value(), f, compile::default_cache_dir());
            if (!x) {
              ok = false;
              notes.push_back("no rank term: " + x.errors().front().message);
              break;
            }
            xs.push_back(x.value());
          }
          if (ok) {
            auto s = m->score(xs);
            if (s) {
              double beats = 0;
              const auto& v = s.value();
              for (size_t i = 1; i < v.size(); ++i) beats += v[0] > v[i] ? 1 : v[0] == v[i] ? 0.5 : 0;
              in.rank = s->size() > 1 ? beats / static_cast<double>(s->size() - 1) : 0.5;
            } else {
              notes.push_back("no rank term: " + s.errors().front().message);
            }
          }
        }
      }
      auto b = reward::compute_reward(in, cfg.value());
      for (auto& n : b.notes) notes.push_back(n);
      bool pending = !ev.gpu_stages_run && ev.verdict == verify::Verdict::Ok;
      nlohmann::json j = b.to_json();
      j["task"] = task_id;
      j["candidate"] = candidate;
      j["verdict"] = verify::verdict_name(ev.verdict);
      j["verdict_message"] = ev.message;
      j["final"] = !pending;
      j["device"] = ev.device;
      j["notes"] = notes;
      if (json) {
        fmt::print("{}\n", j.dump(2));
      } else {
        fmt::print("task:       {}\ncandidate:  {}\nverdict:    {}{}\n", task_id, candidate, verify::verdict_name(ev.verdict),
                   ev.message.empty() ? "" : " (" + ev.message.substr(0, 200) + ")");
        fmt::print("tier:       {}\n", reward::tier_name(b.tier));
        fmt::print("gate        {:+.4f}\n", b.gate);
        fmt::print("speed       {:+.4f}   speedup vs naive {}\n", b.speed, b.speedup ? fmt::format("{:.2f}x", *b.speedup) : "-");
        fmt::print("structure   {:+.4f}   score {}\n", b.structure, b.structure_score ? fmt::format("{:.3f}", *b.structure_score) : "-");
        fmt::print("rank        {:+.4f}   score {}\n", b.rank, b.rank_score ? fmt::format("{:.3f}", *b.rank_score) : "-");
        fmt::print("total       {:+.4f}{}\n", b.total, pending ? "   (not final: GPU stages skipped, no speedup measured)" : "");
        for (const auto& n : notes) fmt::print("note: {}\n", n);
      }
      if (pending) return kExitGpuSkipped;
      return ev.verdict == verify::Verdict::Ok ? kExitOk : kExitNotOk;
    };
  });
}

}  // namespace cudaperf::cli

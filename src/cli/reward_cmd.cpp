// `cudaperf reward --task ID --candidate FILE.cu [--config F] [--model F] [--json]`: eval +
// analyze + rank, and the reward of DESIGN §6 term by term (docs/reward.md).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cudaperf/reward/score_candidate.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0, kExitNotOk = 1, kExitUsage = 2, kExitGpuSkipped = 3;

std::string opt(const nlohmann::json& v, const char* f) { return v.is_number() ? fmt::format(fmt::runtime(f), v.get<double>()) : "-"; }

}  // namespace

void add_reward_command(CLI::App& app) {
  static std::string task_id, candidate, root, config = default_file("config/reward.toml"), model = default_file("data/models/ranker.json");
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
      reward::ScoreOptions so;
      so.model = model;
      so.time_budget_s = g_time_budget_s;
      auto j = reward::score_candidate(t.value(), candidate, cfg.value(), so);
      j["candidate"] = candidate;
      const auto& b = j["reward"];
      if (json) {
        fmt::print("{}\n", j.dump(2));
      } else {
        std::string msg = j["message"];
        fmt::print("task:       {}\ncandidate:  {}\nverdict:    {}{}\n", task_id, candidate, j["verdict"].get<std::string>(),
                   msg.empty() ? "" : " (" + msg.substr(0, 200) + ")");
        fmt::print("tier:       {}\n", b["tier"].get<std::string>());
        fmt::print("gate        {:+.4f}\n", b["gate"].get<double>());
        fmt::print("speed       {:+.4f}   speedup vs naive {}\n", b["speed"].get<double>(), opt(j["speedup"], "{:.2f}x"));
        fmt::print("structure   {:+.4f}   score {}\n", b["structure"].get<double>(), opt(b["structure_score"], "{:.3f}"));
        fmt::print("rank        {:+.4f}   score {}\n", b["rank"].get<double>(), opt(b["rank_score"], "{:.3f}"));
        fmt::print("total       {:+.4f}{}\n", b["total"].get<double>(),
                   j["final"].get<bool>() ? "" : "   (not final: GPU stages skipped, no speedup measured)");
        for (const auto& n : j["notes"]) fmt::print("note: {}\n", n.get<std::string>());
      }
      if (!j["final"].get<bool>()) return kExitGpuSkipped;
      return j["verdict"] == "ok" ? kExitOk : kExitNotOk;
    };
  });
}

}  // namespace cudaperf::cli

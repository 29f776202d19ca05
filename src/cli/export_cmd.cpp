// `cudaperf export --format jsonl|trl|verl [--root DIR] [--out FILE] [--category C]... [--split train|heldout|all]
// [--kind c2cuda|torch2cuda|all]`: the tasks
// of both kinds (C-to-CUDA, then torch2cuda; field "kind") as prompts, one JSON line each, in the layout each RL engine's dataset loader expects, with the
// task id as ground truth (what the reward service is called with).
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cudaperf/task/prompt.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

void add_export_command(CLI::App& app) {
  static std::string format = "jsonl", root, out;
  static std::vector<std::string> categories;
  static std::string split = "all", kind = "all";
  auto* cmd = app.add_subcommand("export", "Write the tasks as prompts (JSON lines) for RL engines: jsonl, trl or verl layout");
  cmd->add_option("--format", format, "jsonl (task_id, prompt, ground_truth), trl (conversational prompt + task_id) "
                                      "or verl (data_source, prompt, ability, reward_model, extra_info)")
      ->check(CLI::IsMember({"jsonl", "trl", "verl"}));
  cmd->add_option("--root", root, "dataset folder (default: data/tasks)");
  cmd->add_option("--out", out, "output file (default: standard output)");
  cmd->add_option("--category", categories, "only these categories (repeatable)");
  cmd->add_option("--split", split, "train, heldout or all (default): the family-level split of the generated tier "
                                    "(tag split:...); curated tasks, which have no such tag, are train (docs/generators.md)")
      ->check(CLI::IsMember({"train", "heldout", "all"}));
  cmd->add_option("--kind", kind, "c2cuda, torch2cuda or all (default): which task kind to write")
      ->check(CLI::IsMember({"c2cuda", "torch2cuda", "all"}));
  cmd->callback([] {
    g_action = [] {
      fs::path r = root.empty() ? default_root() : fs::path(root);
      auto dirs = task::find_task_dirs(r);
      if (dirs.empty() && task::find_task_dirs(r, task::TaskKind::Torch2Cuda).empty()) {
        fmt::print(stderr, "cudaperf export: no tasks under {}\n", r.string());
        return 2;
      }
      std::ofstream file;
      if (!out.empty()) {
        file.open(out);
        if (!file) {
          fmt::print(stderr, "cudaperf export: cannot write {}\n", out);
          return 2;
        }
      }
      std::ostream& os = out.empty() ? std::cout : file;
      int n = 0, bad = 0;
      // one line of either kind: kind "c2cuda" / "torch2cuda"; verl's data_source says which
      auto write = [&](const std::string& kind, const std::string& id, const std::string& category,
                       const std::string& task_split, const std::string& prompt) {
        nlohmann::json messages = nlohmann::json::array({{{"role", "user"}, {"content", prompt}}});
        nlohmann::json j;
        if (format == "jsonl")
          j = {{"task_id", id}, {"kind", kind}, {"category", category}, {"split", task_split}, {"prompt", prompt},
               {"ground_truth", id}};
        else if (format == "trl")
          j = {{"prompt", messages}, {"task_id", id}, {"kind", kind}, {"category", category}};
        else
          j = {{"data_source", "cudaperf/" + kind}, {"prompt", messages}, {"ability", "cuda"},
               {"reward_model", {{"style", "rule"}, {"ground_truth", id}}},
               {"extra_info", {{"index", n}, {"task_id", id}, {"category", category},
                               {"interaction_kwargs", {{"name", "cudaperf"}, {"task_id", id}}}}}};
        os << j.dump() << "\n";
        ++n;
      };
      auto wanted = [&](const std::string& category, const std::string& task_split) {
        return (categories.empty() || std::find(categories.begin(), categories.end(), category) != categories.end()) &&
               (split == "all" || task_split == split);
      };
      if (kind == "torch2cuda") dirs.clear();
      for (const auto& d : dirs) {
        auto t = task::load_task(d);
        if (!t) {
          fmt::print(stderr, "cudaperf export: skipping {}: {}\n", d.string(), t.errors().front().to_string());
          ++bad;
          continue;
        }
        std::string task_split = t->tag_value("split").empty() ? "train" : t->tag_value("split");
        if (wanted(t->category, task_split)) write("c2cuda", t->id, t->category, task_split, task::render_prompt(t.value()));
      }
      for (const auto& d : kind == "c2cuda" ? std::vector<fs::path>{} : task::find_task_dirs(r, task::TaskKind::Torch2Cuda)) {
        auto t = task::load_torch_task(d);
        if (!t) {
          fmt::print(stderr, "cudaperf export: skipping {}: {}\n", d.string(), t.errors().front().to_string());
          ++bad;
          continue;
        }
        std::string task_split = "train";  // curated (no generated torch2cuda tier yet)
        for (const auto& tag : t->tags)
          if (tag.rfind("split:", 0) == 0) task_split = tag.substr(6);
        if (wanted(t->category, task_split)) write("torch2cuda", t->id, t->category, task_split, task::render_torch_prompt(t.value()));
      }
      fmt::print(stderr, "exported {} task(s) as {}{}\n", n, format, out.empty() ? "" : " to " + out);
      return bad == 0 && n > 0 ? 0 : 1;
    };
  });
}

}  // namespace cudaperf::cli

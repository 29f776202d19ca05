// `cudaperf export --format jsonl|trl|verl [--root DIR] [--out FILE] [--category C]... [--split train|heldout|all]`: the tasks
// as prompts, one JSON line each, in the layout each RL engine's dataset loader expects, with the
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
  static std::string split = "all";
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
  cmd->callback([] {
    g_action = [] {
      fs::path r = root.empty() ? default_root() : fs::path(root);
      auto dirs = task::find_task_dirs(r);
      if (dirs.empty()) {
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
      for (const auto& d : dirs) {
        auto t = task::load_task(d);
        if (!t) {
          fmt::print(stderr, "cudaperf export: skipping {}: {}\n", d.string(), t.errors().front().to_string());
          ++bad;
          continue;
        }
        if (!categories.empty() && std::find(categories.begin(), categories.end(), t->category) == categories.end()) continue;
        std::string task_split = t->tag_value("split").empty() ? "train" : t->tag_value("split");
        if (split != "all" && task_split != split) continue;
        std::string prompt = task::render_prompt(t.value());
        nlohmann::json messages = nlohmann::json::array({{{"role", "user"}, {"content", prompt}}});
        nlohmann::json j;
        if (format == "jsonl")
          j = {{"task_id", t->id}, {"category", t->category}, {"split", task_split}, {"prompt", prompt}, {"ground_truth", t->id}};
        else if (format == "trl")
          j = {{"prompt", messages}, {"task_id", t->id}, {"category", t->category}};
        else
          j = {{"data_source", "cudaperf/c2cuda"}, {"prompt", messages}, {"ability", "cuda"},
               {"reward_model", {{"style", "rule"}, {"ground_truth", t->id}}},
               {"extra_info", {{"index", n}, {"task_id", t->id}, {"category", t->category},
                               {"interaction_kwargs", {{"name", "cudaperf"}, {"task_id", t->id}}}}}};
        os << j.dump() << "\n";
        ++n;
      }
      if (size_t nt = task::find_task_dirs(r, task::TaskKind::Torch2Cuda).size())
        fmt::print(stderr, "cudaperf export: {} torch2cuda task(s) skipped (export writes C-to-CUDA prompts only)\n", nt);
      fmt::print(stderr, "exported {} task(s) as {}{}\n", n, format, out.empty() ? "" : " to " + out);
      return bad == 0 && n > 0 ? 0 : 1;
    };
  });
}

}  // namespace cudaperf::cli

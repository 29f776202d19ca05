// `cudaperf tasks list | show ID | validate [PATH]`
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <thread>
#include <ctime>

#include "cli/commands.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/timing/peaks.hpp"
#include "cudaperf/timing/stats.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/dataset_check.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"
#include "cudaperf/torch2cuda/prepare.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"
#include "cudaperf/torch2cuda/validate.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

fs::path default_root() {
  if (fs::is_directory("data/tasks")) return "data/tasks";
  return fs::path(CUDAPERF_SOURCE_DIR) / "data" / "tasks";
}

std::string default_file(const std::string& rel) {
  if (fs::exists(rel)) return rel;
  fs::path p = fs::path(CUDAPERF_SOURCE_DIR) / rel;
  return fs::exists(p) ? p.string() : rel;
}

std::function<int()> g_action;
double g_time_budget_s = 2.0;
std::string g_torch_mode = "strict";  // torch2cuda: evaluation mode, "strict" or "kernelbench" (docs/torch2cuda.md)

namespace {

struct Row {
  std::string id, category;
  size_t impls = 0, configs = 0;
  double gflop = 0, gbytes = 0, floor_ms = 0;
  bool coop = false;
};

Row row_of(const task::Task& t, bool coop) {
  Row r{t.id, t.category, t.impls.size(), t.configs.size()};
  r.coop = coop;
  for (const auto& c : t.configs) {
    if (!c.perf) continue;
    if (auto rl = task::roofline(t, c); auto* v = std::get_if<task::Roofline>(&rl)) {
      r.gflop = v->flops / 1e9;
      r.gbytes = v->bytes / 1e9;
      r.floor_ms = v->floor_s * 1e3;
    }
    break;
  }
  return r;
}

std::string header_line(bool with_status) {
  return fmt::format("{:<36} {:<13} {:>5} {:>7} {:>10} {:>8} {:>8} {:>5}{}", "id", "category", "impls", "configs",
                     "perf GFLOP", "perf GB", "floor ms", "coop", with_status ? "  nulls rejected  status" : "");
}

std::string format_row(const Row& r) {
  return fmt::format("{:<36} {:<13} {:>5} {:>7} {:>10.3f} {:>8.3f} {:>8.3f} {:>5}", r.id, r.category, r.impls,
                     r.configs, r.gflop, r.gbytes, r.floor_ms, r.coop ? "yes" : "no");
}

int list_tasks(const fs::path& root) {
  auto check = verify::check_tasks(root, {.compile = false, .cpu_gates = false, .jobs = 0, .seed = 0x5eed2026, .reference_timeout_s = 60, .progress = {}});
  fmt::print("{}\n", header_line(false));
  size_t bad = 0;
  for (const auto& tc : check.tasks) {
    if (tc.task) fmt::print("{}\n", format_row(row_of(*tc.task, tc.cooperative)));
    else {
      ++bad;
      fmt::print("{:<36} (does not load: run `cudaperf tasks validate {}`)\n", tc.dir.filename().string(), tc.dir.string());
    }
  }
  // torch2cuda tasks (docs/torch2cuda.md): no cost model, so no GFLOP/GB/floor columns.
  size_t torch_n = 0;
  for (const auto& d : task::find_task_dirs(root, task::TaskKind::Torch2Cuda)) {
    auto t = task::load_torch_task(d);
    if (t) {
      ++torch_n;
      fmt::print("{:<36} {:<13} {:>5} {:>7} {:>10} {:>8} {:>8} {:>5}\n", t->id, t->category, t->impls.size(), t->configs.size(),
                 "-", "-", "-", "-");
    } else {
      ++bad;
      fmt::print("{:<36} (does not load: run `cudaperf tasks validate {}`)\n", d.filename().string(), d.string());
    }
  }
  bool only_torch = check.tasks.empty() && torch_n > 0;
  if (!only_torch)
    for (const auto& p : check.problems) fmt::print(stderr, "{}\n", p.to_string());
  fmt::print("{} task(s) in {} categories{}{}\n", check.tasks.size() - std::min(bad, check.tasks.size()) + torch_n, check.categories(),
             torch_n ? fmt::format(" (+ {} torch2cuda)", torch_n) : "", bad ? fmt::format(", {} that do not load", bad) : "");
  return (check.problems.empty() || only_torch) && bad == 0 ? 0 : 1;
}

int show_torch_task(const fs::path& root, const std::string& id) {
  auto dir = task::find_torch_task_by_id(root, id);
  if (!dir) {
    fmt::print(stderr, "cudaperf: no task '{}' under {} (see `cudaperf tasks list`)\n", id, root.string());
    return 2;
  }
  auto r = task::load_torch_task(*dir);
  if (!r) {
    for (const auto& d : r.errors()) fmt::print(stderr, "{}\n", d.to_string());
    return 1;
  }
  const auto& t = r.value();
  fmt::print("{}\n  {}\n\nkind:          torch2cuda (KernelBench format: Model, get_inputs, get_init_inputs; candidates define ModelNew)\n"
             "folder:        {}\nreference:     {}\nsource:        {}\ndeterministic: {}\ntolerance:     rtol={} atol={}\ninputs:        {}\n",
             t.id, t.summary, t.dir.string(), t.reference.string(), t.source.empty() ? "-" : t.source,
             t.deterministic ? "yes (bitwise)" : "no", t.rtol, t.atol, t.input_dist);
  fmt::print("configurations (module globals of reference.py):\n");
  for (const auto& c : t.configs) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : c.globals) parts.push_back(fmt::format("{}={}", k, v));
    fmt::print("  {:<10} {}{}\n", c.name, fmt::join(parts, " "), c.perf ? "  (timed)" : "");
  }
  fmt::print("implementations:\n");
  for (const auto& im : t.impls) fmt::print("  {:<22} {}\n", im.strategy + ".py", im.header);
  return 0;
}

int show_task(const fs::path& root, const std::string& id) {
  if (id.rfind("torch2cuda/", 0) == 0) return show_torch_task(root, id);
  auto dir = task::find_task_by_id(root, id);
  if (!dir) {
    fmt::print(stderr, "cudaperf: no task '{}' under {} (see `cudaperf tasks list`)\n", id, root.string());
    return 2;
  }
  auto r = task::load_task(*dir);
  if (!r) {
    for (const auto& d : r.errors()) fmt::print(stderr, "{}\n", d.to_string());
    return 1;
  }
  const task::Task& t = r.value();
  fmt::print("{}\n  {}\n\nfolder:       {}\ndeterministic: {}\ntolerance:    rtol={} atol={}\ncost:         flops = {}, bytes = {}\n\n",
             t.id, t.summary, t.dir.string(), t.deterministic ? "yes (bitwise)" : "no", t.rtol, t.atol,
             t.cost_flops.text(), t.cost_bytes.text());
  std::string decl = t.cuda_declaration();
  fmt::print("candidate signature:\n  {}\n", decl.substr(decl.rfind("extern")));
  fmt::print("parameters:\n");
  for (const auto& p : t.params) {
    std::string extra;
    if (p.pointer) extra = fmt::format("len = {}", p.len.text());
    if (p.dist) extra += fmt::format(", dist = {}", p.dist->text);
    if (p.value) extra = fmt::format("default = {}", *p.value);
    fmt::print("  {:<28} {:<7} {}\n", p.c_decl(), task::role_name(p.role), extra);
  }
  fmt::print("configurations:\n");
  for (const auto& c : t.configs) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : c.sizes) parts.push_back(fmt::format("{}={}", k, v));
    for (const auto& [k, v] : c.scalars) parts.push_back(fmt::format("{}={}", k, v));
    std::string floor;
    if (auto rl = task::roofline(t, c); auto* v = std::get_if<task::Roofline>(&rl))
      floor = fmt::format("  flops={:.3g} bytes={:.3g} floor={:.4f} ms", v->flops, v->bytes, v->floor_s * 1e3);
    fmt::print("  {:<10} {}{}{}\n", c.name, fmt::join(parts, " "), floor, c.perf ? "  (timed)" : "");
  }
  fmt::print("implementations:\n");
  for (const auto& im : t.impls) fmt::print("  {:<22} {}\n", im.strategy + ".cu", im.header);
  return 0;
}

int validate(const fs::path& root, bool compile, unsigned jobs, const std::string& json_path, double ref_timeout) {
  verify::CheckOptions o;
  o.compile = compile;
  o.cpu_gates = compile;
  o.jobs = jobs;
  o.reference_timeout_s = ref_timeout;
  o.progress = [](const std::string& s) { fmt::print(stderr, "{}\n", s); };
  auto check = verify::check_tasks(root, o);
  torch2cuda::TorchCheckOptions to;
  to.battery = compile;
  to.jobs = jobs;
  to.mode = g_torch_mode;
  auto torch = torch2cuda::check_torch_tasks(root, to);
  if (check.tasks.empty() && !torch.empty()) check.problems.clear();  // a folder of torch2cuda tasks only

  size_t failed = 0, impls = 0, configs = 0, coop = 0, min_impls = SIZE_MAX, min_configs = SIZE_MAX;
  std::map<std::string, std::pair<int, int>> null_totals;  // name -> (rejected tasks, tested tasks)
  for (const auto& tc : check.tasks) {
    for (const auto& w : tc.warnings) fmt::print("WARN {}: {}\n", tc.task ? tc.task->id : tc.dir.string(), w.to_string());
    if (!tc.problems.empty()) {
      ++failed;
      fmt::print("FAIL {}\n", tc.task ? tc.task->id : tc.dir.string());
      for (const auto& d : tc.problems) {
        std::string s = d.to_string();
        for (size_t pos = 0; (pos = s.find('\n', pos)) != std::string::npos; pos += 5) s.replace(pos, 1, "\n    ");
        fmt::print("  - {}\n", s);
      }
    }
    if (tc.task) {
      impls += tc.task->impls.size();
      configs += tc.task->configs.size();
      min_impls = std::min(min_impls, tc.task->impls.size());
      min_configs = std::min(min_configs, tc.task->configs.size());
      coop += tc.cooperative;
    }
    for (const auto& n : tc.nulls) {
      auto& [rej, tested] = null_totals[n.name];
      tested += n.configs_tested > 0;
      rej += n.rejected();
    }
  }
  size_t torch_failed = 0;
  for (const auto& tc : torch) {
    if (tc.problems.empty()) continue;
    ++torch_failed;
    fmt::print("FAIL {}\n", tc.task ? tc.task->id : tc.dir.string());
    for (const auto& d : tc.problems) fmt::print("  - {}\n", d.file.empty() ? d.message : d.to_string());
  }
  for (const auto& p : check.problems) fmt::print("FAIL {}\n", p.to_string());

  fmt::print("\n{}\n", header_line(compile));
  for (const auto& tc : check.tasks) {
    if (!tc.task) continue;
    std::string nulls;
    if (compile) {
      int rej = 0, tried = 0;
      for (const auto& n : tc.nulls) rej += n.rejected(), tried += n.configs_tested > 0;
      nulls = fmt::format("  {:>14}  {}", tried ? fmt::format("{}/{}", rej, tried) : "-", tc.problems.empty() ? "ok" : "FAIL");
    }
    fmt::print("{}{}\n", format_row(row_of(*tc.task, tc.cooperative)), nulls);
  }
  std::map<std::string, std::pair<int, int>> torch_nulls;
  size_t torch_battery = 0;
  std::string battery_skip;
  for (const auto& tc : torch) {
    if (!tc.task) continue;
    std::string nulls = "-";
    if (tc.battery == "run") {
      ++torch_battery;
      int rej = 0, tried = 0;
      for (const auto& [name, rt] : tc.nulls) {
        rej += rt.first > 0, ++tried;
        auto& tot = torch_nulls[name];
        tot.first += rt.first > 0;
        tot.second += 1;
      }
      nulls = fmt::format("{}/{}", rej, tried);
    } else if (tc.battery.rfind("skipped: ", 0) == 0 && battery_skip.empty()) {
      battery_skip = tc.battery.substr(9);
    }
    fmt::print("{:<36} {:<13} {:>5} {:>7} {:>10} {:>8} {:>8} {:>5}{}\n", tc.task->id, tc.task->category, tc.task->impls.size(),
               tc.task->configs.size(), "-", "-", "-", "-",
               compile ? fmt::format("  {:>14}  {}", nulls, tc.problems.empty() ? "ok" : "FAIL") : "");
  }
  if (min_impls == SIZE_MAX) min_impls = min_configs = 0;
  fmt::print("\ntasks: {} ({} valid, {} with problems) in {} categories\n", check.tasks.size(), check.tasks.size() - failed,
             failed, check.categories());
  fmt::print("implementations: {} (min {} per task); configurations: {} (min {} per task); tasks whose fast impls cooperate (shared memory / shuffles / atomics): {}\n",
             impls, min_impls, configs, min_configs, coop);
  if (compile) {
    std::vector<std::string> parts;
    for (const auto& [name, rt] : null_totals) parts.push_back(fmt::format("{} rejected by {}/{} tasks", name, rt.first, rt.second));
    fmt::print("null-solution battery (CPU, task tolerance vs C reference, non-perf configs): {}\n",
               parts.empty() ? "not run" : fmt::format("{}", fmt::join(parts, "; ")));
  } else {
    fmt::print("(format checks only: --no-compile skips builds, the CPU gates and the null-solution battery)\n");
  }
  if (!torch.empty()) {
    std::set<std::string> cats;
    size_t timpls = 0;
    for (const auto& tc : torch)
      if (tc.task) cats.insert(tc.task->category), timpls += tc.task->impls.size();
    fmt::print("torch2cuda: {} task(s) ({} with problems) in {} categories, {} implementations; static guards and "
               "reference.py checks run on every impl\n", torch.size(), torch_failed, cats.size(), timpls);
    std::vector<std::string> parts;
    for (const auto& [name, rt] : torch_nulls) parts.push_back(fmt::format("{} rejected by {}/{} tasks", name, rt.first, rt.second));
    if (!compile) fmt::print("torch2cuda null-solution battery: not run (--no-compile)\n");
    else if (torch_battery == 0) fmt::print("torch2cuda null-solution battery: SKIPPED (not passed): {}\n", battery_skip.empty() ? "no task could run it" : battery_skip);
    else fmt::print("torch2cuda null-solution battery ({} of {} tasks; reference on {}): {}{}\n", torch_battery, torch.size(),
                    "the GPU if there is one, else the CPU", fmt::join(parts, "; "),
                    battery_skip.empty() ? "" : fmt::format(" (skipped elsewhere: {})", battery_skip));
  }
  bool all_ok = check.ok() || (check.tasks.empty() && !torch.empty() && check.problems.empty());
  all_ok = all_ok && torch_failed == 0;
  fmt::print("{}\n", all_ok ? "validate: OK" : "validate: FAILED");

  if (!json_path.empty()) {
    nlohmann::json j;
    j["ok"] = check.ok();
    j["categories"] = check.categories();
    j["tasks"] = nlohmann::json::array();
    for (const auto& tc : check.tasks) {
      nlohmann::json jt;
      jt["dir"] = tc.dir.string();
      if (tc.task) {
        jt["id"] = tc.task->id;
        jt["category"] = tc.task->category;
        jt["impls"] = tc.task->impls.size();
        jt["configs"] = tc.task->configs.size();
        jt["cooperative"] = tc.cooperative;
        jt["kind"] = "c2cuda";
      }
      jt["problems"] = nlohmann::json::array();
      for (const auto& d : tc.problems) jt["problems"].push_back(d.to_string());
      jt["warnings"] = nlohmann::json::array();
      for (const auto& d : tc.warnings) jt["warnings"].push_back(d.to_string());
      for (const auto& n : tc.nulls)
        jt["nulls"][n.name] = {{"configs_tested", n.configs_tested}, {"configs_rejected", n.configs_rejected}};
      j["tasks"].push_back(jt);
    }
    for (const auto& p : check.problems) j["problems"].push_back(p.to_string());
    j["ok"] = all_ok;
    for (const auto& tc : torch) {
      nlohmann::json jt = {{"dir", tc.dir.string()}, {"kind", "torch2cuda"}, {"battery", tc.battery}};
      if (tc.task) {
        jt["id"] = tc.task->id;
        jt["category"] = tc.task->category;
        jt["impls"] = tc.task->impls.size();
        jt["configs"] = tc.task->configs.size();
        jt["source"] = tc.task->source;
      }
      jt["problems"] = nlohmann::json::array();
      for (const auto& d : tc.problems) jt["problems"].push_back(d.file.empty() ? d.message : d.to_string());
      for (const auto& [name, rt] : tc.nulls) jt["nulls"][name] = {{"configs_rejected", rt.first}, {"configs_tested", rt.second}};
      j["tasks"].push_back(jt);
    }
    std::ofstream(json_path) << j.dump(2) << "\n";
  }
  return all_ok ? 0 : 1;
}

}  // namespace

void add_tasks_command(CLI::App& app) {
  auto* tasks = app.add_subcommand("tasks", "List, show and validate C-to-CUDA tasks");
  tasks->require_subcommand(1);
  add_tasks_stats_command(*tasks);
  static std::string root, id, path, json;
  static bool no_compile = false;
  static unsigned jobs = 0;

  auto* list = tasks->add_subcommand("list", "Table of the tasks: id, category, #impls, #configs, perf-size cost");
  list->add_option("--root", root, "dataset folder (default: data/tasks)");
  list->callback([] { g_action = [] { return list_tasks(root.empty() ? default_root() : fs::path(root)); }; });

  auto* show = tasks->add_subcommand("show", "Everything about one task");
  show->add_option("id", id, "task id, e.g. stencil/jacobi2d_5pt")->required();
  show->add_option("--root", root, "dataset folder (default: data/tasks)");
  show->callback([] { g_action = [] { return show_task(root.empty() ? default_root() : fs::path(root), id); }; });

  add_check_gpu_command(*tasks);

  auto* val = tasks->add_subcommand("validate", "Check task folders: format, builds, CPU gates, null-solution battery");
  val->add_option("path", path, "a task folder or a folder of tasks (default: data/tasks)");
  val->add_flag("--no-compile", no_compile, "format checks only (no gcc/nvcc, no reference runs)");
  val->add_option("-j,--jobs", jobs, "parallel builds and reference runs (default: all cores)");
  val->add_option("--json", json, "also write the full report as JSON to this file");
  val->add_option("--mode", g_torch_mode, "torch2cuda: evaluation mode of the battery, strict (default) or kernelbench")
      ->check(CLI::IsMember(torch2cuda::kTorchModes));
  static double ref_timeout = 60;
  val->add_option("--reference-timeout", ref_timeout, "seconds one reference run may take (default 60)")->check(CLI::PositiveNumber);
  val->callback([] {
    g_action = [] { return validate(path.empty() ? default_root() : fs::path(path), !no_compile, jobs, json, ref_timeout); };
  });
}

int run_selected(CLI::App&) { return g_action ? g_action() : 2; }

}  // namespace cudaperf::cli

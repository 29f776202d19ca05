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
bool g_torch_warm = true;
double g_time_budget_s = 2.0;
std::string g_resume_dir;     // torch2cuda: one JSON file per finished task; tasks with one are skipped
double g_deadline_epoch = 0;  // torch2cuda: no task starts after this time (seconds since the epoch)
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

// The torch2cuda tasks under `root` that load (the others are reported on stderr and left out).
// --resume-dir: the marker of a finished torch2cuda task.
fs::path resume_marker(const std::string& id) {
  std::string f = id;
  std::replace(f.begin(), f.end(), '/', '_');
  return fs::path(g_resume_dir) / (f + ".json");
}

// The torch2cuda tasks under root; with --resume-dir, those not finished yet (a run stopped by its
// deadline or its machine goes on where it ended; builds and warm-ups skip finished tasks too).
std::vector<task::TorchTask> load_torch_tasks(const fs::path& root) {
  std::vector<task::TorchTask> ts;
  size_t done = 0;
  for (const auto& d : task::find_task_dirs(root, task::TaskKind::Torch2Cuda)) {
    auto tt = task::load_torch_task(d);
    if (!tt) fmt::print(stderr, "skipping {}: {}\n", d.string(), tt.errors().front().to_string());
    else if (!g_resume_dir.empty() && fs::exists(resume_marker(tt.value().id))) ++done;  // its results are in its marker
    else ts.push_back(tt.value());
  }
  if (done) fmt::print(stderr, "[torch] {} task(s) already done in {}: skipped\n", done, g_resume_dir);
  return ts;
}

std::vector<fs::path> torch_impl_paths(const std::vector<task::TorchTask>& ts) {
  std::vector<fs::path> cands;
  for (const auto& t : ts)
    for (const auto& im : t.impls) cands.push_back(im.path);
  return cands;
}

// A prebuild result that is a failure (a candidate the static guards refuse is not built: skipped).
bool build_failed(const nlohmann::json& b) { return b.is_object() && b.value("verdict", "ok") != "ok" && !b.contains("skipped"); }

// `tasks check-gpu --build-only`: every torch2cuda impl's extensions into the cache, in parallel
// (no GPU needed): which impls build, and how long a cold build takes.
int prebuild_torch(const fs::path& root, unsigned jobs, const std::string& json_path) {
  auto cands = torch_impl_paths(load_torch_tasks(root));
  auto t0 = std::chrono::steady_clock::now();
  auto builds = torch2cuda::prebuild_torch_candidates(cands, jobs);
  int failed = 0;
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < cands.size(); ++i) {
    if (!builds[i].is_object()) builds[i] = {{"skipped", "torch test mode (nothing is built)"}};
    bool bad = build_failed(builds[i]);
    failed += bad;
    double secs = builds[i].value("seconds", 0.0);
    fmt::print("{:<70} {:>7.1f} s  {}\n", cands[i].string(), secs,
               builds[i].contains("skipped") ? "skipped (" + builds[i].value("skipped", "") + ")" : builds[i].value("verdict", "?") + (bad ? ": " + builds[i].value("message", "") : ""));
    auto j = builds[i];
    j["candidate"] = cands[i].string();
    out.push_back(j);
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("prebuild: {} candidate(s), {} failed, {:.1f} s wall\n", cands.size(), failed, total);
  if (!json_path.empty()) std::ofstream(json_path) << nlohmann::json{{"builds", out}, {"wall_s", total}}.dump(1) << "\n";
  return failed ? 1 : 0;
}

// `tasks check-gpu --warm-only`: torch.compile of every torch2cuda reference at its perf configs, in
// parallel, into the Inductor cache (the GPU runs each compiled graph once; nothing is timed).
int prewarm_torch(const fs::path& root, unsigned jobs) {
  auto ts = load_torch_tasks(root);
  auto t0 = std::chrono::steady_clock::now();
  auto warmed = torch2cuda::prewarm_torch_baselines(ts, jobs ? jobs : 8, 900, g_torch_mode);
  int bad = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (!warmed[i].is_object()) warmed[i] = {{"seconds", 0.0}};
    bool err = warmed[i].contains("error");
    bad += err;
    fmt::print("{:<48} {:>7.1f} s  {}\n", ts[i].id, warmed[i].value("seconds", 0.0), err ? warmed[i]["error"].dump() : "ok");
  }
  fmt::print("warm: {} task(s), {} with errors, {:.1f} s wall\n", ts.size(), bad,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return bad ? 1 : 0;
}

int check_gpu(const fs::path& root, bool perf, unsigned jobs, const std::string& json_path, int samples,
              const std::string& records_path) {
  bool have_gpu = false;
  std::string gpu = verify::describe_gpu(have_gpu);
  fmt::print("device: {}\n", gpu);
  // Tests only: the torch worker's test mode runs torch2cuda tasks on the CPU (no C-to-CUDA task runs).
  bool torch_cpu_test = !have_gpu && torch2cuda::torch_runtime().test_mode;
  if (!have_gpu && !torch_cpu_test) {
    fmt::print("GPU stages skipped: {} (nothing was measured; exit code 3)\n", gpu);
    return 3;
  }
  // Device peaks (measured once per device, cached): the roofline floor in the records.
  std::string peaks_note;
  task::Peaks peaks = timing::roofline_peaks(compile::default_cache_dir(), peaks_note);
  fmt::print("peaks: {}\n", peaks_note);
  std::ofstream records;
  std::string toolkit, date;
  if (!records_path.empty()) {
    fs::create_directories(fs::path(records_path).parent_path().empty() ? "." : fs::path(records_path).parent_path());
    records.open(records_path, std::ios::app);
    if (!records) {
      fmt::print(stderr, "cudaperf: cannot write records to {}\n", records_path);
      return 2;
    }
    auto v = sandbox::run_process({compile::nvcc_path(), "--version"}, std::chrono::seconds(30));
    toolkit = v.output.substr(v.output.find("release") == std::string::npos ? 0 : v.output.find("release"));
    toolkit = toolkit.substr(0, toolkit.find('\n'));
    std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    date = buf;
  }
  std::vector<task::Task> tasks;
  for (const auto& d : torch_cpu_test ? std::vector<fs::path>{} : task::find_task_dirs(root)) {
    auto r = task::load_task(d);
    if (r) tasks.push_back(r.value());
    else fmt::print(stderr, "skipping {}: {}\n", d.string(), r.errors().front().to_string());
  }
  // Build everything first (cached), in parallel.
  std::vector<std::pair<size_t, int>> jobs_list;  // (task, impl index or -1 for the reference)
  for (size_t i = 0; i < tasks.size(); ++i) {
    jobs_list.push_back({i, -1});
    for (size_t k = 0; k < tasks[i].impls.size(); ++k) jobs_list.push_back({i, static_cast<int>(k)});
  }
  std::vector<compile::Artifact> built(jobs_list.size());
  fmt::print(stderr, "building {} sources...\n", jobs_list.size());
  auto run0 = std::chrono::steady_clock::now();
  parallel_for(jobs_list.size(), jobs ? jobs : default_jobs(), [&](size_t j) {
    const auto& t = tasks[jobs_list[j].first];
    int k = jobs_list[j].second;
    built[j] = k < 0 ? compile::compile_reference(t) : compile::compile_cuda(t, t.impls[static_cast<size_t>(k)].path);
  });
  double compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
  size_t cached = static_cast<size_t>(std::count_if(built.begin(), built.end(), [](const compile::Artifact& a) { return a.cache_hit; }));
  nlohmann::json out = {{"device", gpu}, {"tasks", nlohmann::json::array()}};
  size_t j = 0, failures = 0;
  verify::GpuCheckStages stages;
  verify::GpuCheckOptions o;
  o.stages = &stages;
  o.perf = perf;
  o.timing.min_samples = samples;
  o.timing.budget_s = g_time_budget_s;
  fmt::print("{:<36} {:<22} {:<14} {:>10} {:>9}  {}\n", "task", "impl", "small configs", "perf ms", "vs naive", "note");
  for (size_t i = 0; i < tasks.size(); ++i) {
    const auto& t = tasks[i];
    fs::path ref = built[j].ok ? built[j].path : fs::path();
    std::vector<fs::path> arts;
    ++j;
    for (size_t k = 0; k < t.impls.size(); ++k, ++j) arts.push_back(built[j].ok ? built[j].path : fs::path());
    if (ref.empty()) {
      fmt::print("{:<36} reference does not build\n", t.id);
      ++failures;
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    auto res = verify::gpu_check_task(t, ref, arts, o);
    fmt::print(stderr, "[{}/{}] {} ({:.1f} s)\n", i + 1, tasks.size(), t.id,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    nlohmann::json jt = {{"id", t.id}, {"results", nlohmann::json::array()}};
    if (records.is_open())
      for (const auto& r : res) {
        bool is_perf = false;
        double floor_ms = -1;
        for (const auto& c : t.configs)
          if (c.name == r.config) {
            is_perf = c.perf;
            if (auto rl = task::roofline(t, c, peaks); auto* v = std::get_if<task::Roofline>(&rl)) floor_ms = v->floor_s * 1e3;
          }
        records << nlohmann::json{{"task", t.id}, {"category", t.category}, {"impl", r.impl}, {"config", r.config},
                                  {"perf", is_perf}, {"status", r.status}, {"message", r.message},
                                  {"median_ms", r.median_ms}, {"min_ms", r.min_ms}, {"q1_ms", r.q1_ms},
                                  {"q3_ms", r.q3_ms}, {"rel_stdev", r.rel_stdev}, {"samples", r.samples},
                                  {"stop_reason", r.stop_reason}, {"discarded", r.discarded},
                                  {"timed_calls", r.timed_calls}, {"sm_clock_mhz", r.sm_clock_mhz},
                                  {"sm_clock_max_mhz", r.sm_clock_max_mhz}, {"handshake_ms", r.handshake_ms},
                                  {"window_median_ms", r.window_median_ms}, {"pre_window_ms", r.pre_window_ms},
                                  {"roofline_floor_ms", is_perf ? floor_ms : -1.0}, {"peaks", peaks_note},
                                  {"device", gpu}, {"toolkit", toolkit},
                                  {"date", date}}.dump()
                << "\n";
      }
    double naive_ms = -1;
    for (const auto& r : res)
      if (r.impl == "naive" && r.median_ms > 0) naive_ms = r.median_ms;
    for (const auto& im : t.impls) {
      int ok = 0, total = 0;
      std::string first_bad, perf_note;
      double ms = -1;
      for (const auto& r : res) {
        if (r.impl != im.strategy && r.impl != "*") continue;
        jt["results"].push_back({{"impl", r.impl}, {"config", r.config}, {"status", r.status}, {"message", r.message},
                                 {"median_ms", r.median_ms}, {"min_ms", r.min_ms}, {"q1_ms", r.q1_ms}, {"q3_ms", r.q3_ms},
                                 {"rel_stdev", r.rel_stdev}, {"samples", r.samples}, {"stop_reason", r.stop_reason}});
        const task::Config* c = nullptr;
        for (const auto& cc : t.configs)
          if (cc.name == r.config) c = &cc;
        if (c && c->perf) {
          if (r.status == "ok") ms = r.median_ms;
          else perf_note = fmt::format("perf {}: {}", r.status, r.message);
          continue;
        }
        ++total;
        if (r.status == "ok") ++ok;
        else if (first_bad.empty()) first_bad = fmt::format("{} @{}: {}", r.status, r.config, r.message);
      }
      bool bad = ok != total || total == 0 || !perf_note.empty();
      failures += bad;
      std::string note = !first_bad.empty() ? first_bad : perf_note;
      fmt::print("{:<36} {:<22} {:<14} {:>10} {:>9}  {}\n", t.id, im.strategy, fmt::format("{}/{} ok", ok, total),
                 ms > 0 ? fmt::format("{:.3f}", ms) : "-", ms > 0 && naive_ms > 0 ? fmt::format("{:.2f}x", naive_ms / ms) : "-",
                 note.substr(0, 160));
    }
    out["tasks"].push_back(jt);
  }
  // torch2cuda tasks: every impl through the torch worker (docs/torch2cuda.md); a task's impls in
  // one run, with eager and torch.compile baselines once per task.
  out["torch_tasks"] = nlohmann::json::array();
  out["torch_not_started"] = nlohmann::json::array();  // --deadline-epoch: tasks left for the next run
  auto torch_tasks = load_torch_tasks(root);
  if (!g_resume_dir.empty()) fs::create_directories(g_resume_dir);
  if (auto cands = torch_impl_paths(torch_tasks); !cands.empty()) {
    // Cold extension builds dominate a dataset run: build every impl in parallel first, so the
    // evaluations below (one at a time, timed) start from the cache. torch.compile of every
    // reference warms the Inductor cache at the same time (the timed baselines then find their
    // graphs there): both are CPU work, done before anything is timed.
    auto b0 = std::chrono::steady_clock::now();
    std::vector<nlohmann::json> warmed;
    double warm_s = 0;
    std::thread warm_thread;
    if (g_torch_warm)
      warm_thread = std::thread([&] {
        auto w0 = std::chrono::steady_clock::now();
        warmed = torch2cuda::prewarm_torch_baselines(torch_tasks, std::min(jobs ? jobs : 8u, 8u), 900, g_torch_mode);
        warm_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
      });
    auto builds = torch2cuda::prebuild_torch_candidates(cands, jobs);
    int cold = 0, failed = 0, full_header = 0;  // full_header: the cut-down torch/extension.h was not enough
    for (const auto& b : builds) {
      if (b.contains("extensions"))
        for (const auto& e : b["extensions"]) {
          cold += !e.value("cached", false);
          full_header += e.value("headers", "") == "full";
        }
      failed += build_failed(b);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
    fmt::print(stderr, "[torch] prebuilt {} candidate(s): {} extension(s) built cold ({} against the full torch/extension.h), {} failed, {:.1f} s\n",
               cands.size(), cold, full_header, failed, secs);
    out["torch_prebuild"] = {{"candidates", cands.size()}, {"cold_extensions", cold}, {"full_header", full_header},
                             {"failed", failed}, {"seconds", secs}};
    if (warm_thread.joinable()) {
      warm_thread.join();
      int bad = 0;
      for (const auto& w : warmed) bad += w.contains("error");
      fmt::print(stderr, "[torch] torch.compile warmed for {} task(s) beside the builds, {} with errors, {:.1f} s\n", torch_tasks.size(), bad, warm_s);
      out["torch_prewarm"] = {{"tasks", torch_tasks.size()}, {"errors", bad}, {"seconds", warm_s}};
    }
  }
  for (size_t ti = 0; ti < torch_tasks.size(); ++ti) {
    const auto& t = torch_tasks[ti];
    if (g_deadline_epoch > 0 && static_cast<double>(std::time(nullptr)) >= g_deadline_epoch) {
      fmt::print("deadline: stopped before {} ({} task(s) not started)\n", t.id, torch_tasks.size() - ti);
      for (size_t rest = ti; rest < torch_tasks.size(); ++rest) out["torch_not_started"].push_back(torch_tasks[rest].id);
      break;
    }
    nlohmann::json jt = {{"id", t.id}, {"results", nlohmann::json::array()}};
    // Every impl of the task in one run: one reference (inputs, expected outputs) and one set of
    // eager / torch.compile baselines, each impl in its own confined worker.
    torch2cuda::TorchEvalOptions to;
    to.keep_spare = ti + 1 < torch_tasks.size();  // the next task's reference imports torch meanwhile
    to.mode = g_torch_mode;
    to.baselines = true;
    to.timing.min_samples = samples;
    to.timing.budget_s = g_time_budget_s;
    to.impl_timeout_s = 600;
    to.call_timeout_s = 30;
    std::vector<fs::path> paths;
    for (const auto& im : t.impls) paths.push_back(im.path);
    auto t0 = std::chrono::steady_clock::now();
    auto reps = torch2cuda::evaluate_torch_candidates(t, paths, to);
    fmt::print(stderr, "[torch] {}: {} impl(s) ({:.1f} s)\n", t.id, t.impls.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    for (size_t ii = 0; ii < t.impls.size(); ++ii) {
      const auto& im = t.impls[ii];
      auto& rep = reps[ii];
      if (!perf) rep.base.configs.erase(std::remove_if(rep.base.configs.begin(), rep.base.configs.end(), [](const verify::ConfigResult& c) { return c.perf; }), rep.base.configs.end());
      auto jr = rep.to_json();
      jr["impl"] = im.strategy;
      jt["results"].push_back(jr);
      int ok = 0, total = 0;
      double ms = -1;
      for (const auto& c : rep.base.configs) {
        if (c.perf && c.status == "ok") ms = c.median_ms;
        if (!c.perf) ++total, ok += c.status == "ok";
        if (records.is_open()) {
          nlohmann::json rec = {{"task", t.id}, {"category", t.category}, {"kind", "torch2cuda"}, {"mode", rep.mode}, {"impl", im.strategy},
                                {"config", c.config}, {"perf", c.perf}, {"status", c.status}, {"message", c.message},
                                {"median_ms", c.median_ms}, {"min_ms", c.min_ms}, {"q1_ms", c.q1_ms}, {"q3_ms", c.q3_ms},
                                {"rel_stdev", c.rel_stdev}, {"samples", c.samples}, {"timed_calls", c.timed_calls},
                                {"discarded", c.discarded}, {"sm_clock_mhz", c.sm_clock_mhz},
                                {"device", gpu}, {"toolkit", toolkit}, {"date", date}, {"build", rep.build}, {"stages", rep.stages}};
          if (auto it = rep.eager_ms.find(c.config); it != rep.eager_ms.end()) rec["eager_ms"] = it->second;
          if (auto it = rep.compile_ms.find(c.config); it != rep.compile_ms.end()) rec["compile_ms"] = it->second;
          records << rec.dump() << "\n";
        }
      }
      bool bad = rep.base.verdict != verify::Verdict::Ok || ok != total;
      failures += bad;
      std::string eager;
      for (const auto& [cfg, e] : rep.eager_ms)
        if (ms > 0 && e > 0) eager = fmt::format("{:.2f}x", e / ms);
      fmt::print("{:<36} {:<22} {:<14} {:>10} {:>9}  {}\n", t.id, im.strategy, fmt::format("{}/{} ok", ok, total),
                 ms > 0 ? fmt::format("{:.3f}", ms) : "-", eager.empty() ? "-" : eager + " eager",
                 rep.base.verdict == verify::Verdict::Ok ? "" : fmt::format("{}: {}", verify::verdict_name(rep.base.verdict), rep.base.message.substr(0, 160)));
    }
    if (!g_resume_dir.empty()) {  // this task is done: written whole, then renamed
      auto m = resume_marker(t.id);
      std::ofstream(m.string() + ".part") << nlohmann::json{{"device", gpu}, {"torch_tasks", {jt}}}.dump(1) << "\n";
      std::error_code ec;
      fs::rename(m.string() + ".part", m, ec);
    }
    out["torch_tasks"].push_back(jt);
  }
  out["failures"] = failures;
  double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
  size_t impls = 0;
  for (const auto& t : tasks) impls += t.impls.size();
  out["time_s"] = {{"total", total_s}, {"compile", compile_s}, {"sources", built.size()}, {"cached", cached},
                   {"workers", stages.workers}, {"retimed", stages.retimed}};
  verify::for_each_stage(stages, [&](const char* name, double v) { out["time_s"][name] = v; });
  // Compile latency per CUDA source (the references are gcc): cold builds and cache hits.
  std::vector<double> cold, warm;
  for (size_t k = 0; k < built.size(); ++k)
    if (jobs_list[k].second >= 0) (built[k].cache_hit ? warm : cold).push_back(built[k].seconds);
  for (auto* v : {&cold, &warm}) {
    auto sm = timing::summarize(*v);
    const char* name = v == &cold ? "compile_cold" : "compile_cached";
    out["time_s"][name] = {{"n", sm.samples}, {"median", sm.median}, {"q3", sm.q3}, {"max", sm.max}};
  }
  size_t torch_impls = 0;
  for (const auto& jt : out["torch_tasks"]) torch_impls += jt["results"].size();
  out["time_s"]["torch_implementations"] = torch_impls;
  if (torch_impls)
    fmt::print("time: {:.1f} s for {} torch2cuda implementation(s) in {} task(s) ({:.1f} per minute; stages in each report)\n",
               total_s, torch_impls, out["torch_tasks"].size(), total_s > 0 ? 60 * torch_impls / total_s : 0.0);
  auto pct = [&](double x) { return total_s > 0 ? 100 * x / total_s : 0.0; };
  if (!tasks.empty()) {  // the C-to-CUDA stage table (torch2cuda stages are in each report)
    fmt::print("time: {:.1f} s for {} implementations ({:.1f} per minute)\n", total_s, impls, total_s > 0 ? 60 * impls / total_s : 0.0);
    fmt::print("  compile            {:8.1f} s {:5.1f} %  ({} sources, {} from the cache)\n", compile_s, pct(compile_s), built.size(), cached);
    fmt::print("  nvcc per source: cold n={} median {:.2f} s max {:.2f} s; cached n={} median {:.3f} s (jobs in parallel)\n",
               cold.size(), timing::summarize(cold).median, timing::summarize(cold).max, warm.size(), timing::summarize(warm).median);
    fmt::print("  inputs + C ref     {:8.1f} s {:5.1f} %\n", stages.inputs_and_reference, pct(stages.inputs_and_reference));
    fmt::print("  worker prepare     {:8.1f} s {:5.1f} %  (CUDA context, pool; before the GPU lock; {} workers)\n", stages.worker_prepare, pct(stages.worker_prepare), stages.workers);
    fmt::print("  worker start       {:8.1f} s {:5.1f} %  (confinement, load)\n", stages.worker_start, pct(stages.worker_start));
    fmt::print("  small configs      {:8.1f} s {:5.1f} %\n", stages.small_configs, pct(stages.small_configs));
    fmt::print("  perf setup+warm-up {:8.1f} s {:5.1f} %\n", stages.perf_setup, pct(stages.perf_setup));
    fmt::print("  timed calls        {:8.1f} s {:5.1f} %  (with per-call reset, L2 flush, output check)\n", stages.timed, pct(stages.timed));
    fmt::print("  supervisor checks  {:8.1f} s {:5.1f} %\n", stages.supervisor_checks, pct(stages.supervisor_checks));
    double rest = stages.workers_total - stages.worker_start - stages.small_configs - stages.perf_setup - stages.timed;
    fmt::print("  worker other       {:8.1f} s {:5.1f} %  (process start/exit, teardown)\n", rest, pct(rest));
  }
  if (!json_path.empty()) std::ofstream(json_path) << out.dump(1) << "\n";
  const auto& not_started = out["torch_not_started"];
  fmt::print("check-gpu: {}, {} implementation result(s) with problems{}\n",
             tasks.empty() ? fmt::format("{} torch2cuda task(s)", out["torch_tasks"].size()) : fmt::format("{} task(s)", tasks.size()),
             failures, not_started.empty() ? "" : fmt::format(", {} task(s) not started (deadline; exit code 4)", not_started.size()));
  return failures ? 1 : not_started.empty() ? 0 : 4;
}

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

  static bool no_perf = false;
  static int samples = 10;
  auto* gpu = tasks->add_subcommand("check-gpu", "Run every implementation on the GPU against the C reference (small configs) and time them (perf configs)");
  gpu->add_option("path", path, "a task folder or a folder of tasks (default: data/tasks)");
  gpu->add_flag("--no-perf", no_perf, "skip the perf configs");
  gpu->add_option("--min-samples", samples, "minimum timed samples per perf config (default 10; sampling stops at 0.5 % rel. stdev or 2 s)");
  gpu->add_option("--time-budget", g_time_budget_s, "seconds of sampling per perf config (default 2)")->check(CLI::Range(0.01, 3600.0));
  gpu->add_option("-j,--jobs", jobs, "parallel builds (default: all cores)");
  gpu->add_option("--json", json, "write every result as JSON to this file");
  static std::string records;
  gpu->add_option("--records", records, "append one JSON line per (task, impl, config) measurement to this file");
  static bool build_only = false, no_warm = false, warm_only = false;
  gpu->add_flag("--warm-only", warm_only, "torch2cuda: only compile every reference with torch.compile into the Inductor cache (parallel)");
  gpu->add_flag("--build-only", build_only, "torch2cuda: only build every impl's extensions into the cache (parallel, no GPU)");
  gpu->add_option("--mode", g_torch_mode, "torch2cuda: evaluation mode, strict (default) or kernelbench")
      ->check(CLI::IsMember(torch2cuda::kTorchModes));
  gpu->add_flag("--no-warm", no_warm, "torch2cuda: skip compiling the references with torch.compile ahead of the timed baselines");
  gpu->add_option("--resume-dir", g_resume_dir, "torch2cuda: a JSON file per finished task here; tasks that have one are skipped (in builds and "
                  "warm-ups too; their results stay in their files, this run's exit code covers the tasks it ran)");
  gpu->add_option("--deadline-epoch", g_deadline_epoch, "torch2cuda: start no task after this time (seconds since the epoch); "
                  "tasks left are listed (torch_not_started in --json) and the exit code is 4 when nothing else failed");
  gpu->callback([] {
    g_action = [] {
      g_torch_warm = !no_warm;
      fs::path root = path.empty() ? default_root() : fs::path(path);
      if (warm_only) return prewarm_torch(root, jobs);
      return build_only ? prebuild_torch(root, jobs, json) : check_gpu(root, !no_perf, jobs, json, samples, records);
    };
  });

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

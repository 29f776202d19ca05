// `cudaperf tasks check-gpu [PATH]`: every implementation of every task on the GPU — C-to-CUDA
// against the C reference at small configs and timed at perf configs, torch2cuda through the torch
// workers with eager and torch.compile baselines — as a table, --json, and --records lines
// (verify/record.hpp); --build-only / --warm-only prepare the torch2cuda caches.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <thread>

#include "cli/commands.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/timing/peaks.hpp"
#include "cudaperf/timing/stats.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"
#include "cudaperf/torch2cuda/prepare.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "cudaperf/verify/gpu_dataset.hpp"
#include "cudaperf/verify/record.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

namespace {
bool g_torch_warm = true;
std::string g_resume_dir;     // torch2cuda: one JSON file per finished task; tasks with one are skipped
double g_deadline_epoch = 0;  // torch2cuda: no task starts after this time (seconds since the epoch)

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

}  // namespace

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
  verify::RecordRun run{gpu, "", ""};
  if (!records_path.empty()) {
    fs::create_directories(fs::path(records_path).parent_path().empty() ? "." : fs::path(records_path).parent_path());
    records.open(records_path, std::ios::app);
    if (!records) {
      fmt::print(stderr, "cudaperf: cannot write records to {}\n", records_path);
      return 2;
    }
    run.toolkit = compile::toolkit_description();
    std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    run.date = buf;
  }
  nlohmann::json out = {{"device", gpu}, {"tasks", nlohmann::json::array()}};
  auto run0 = std::chrono::steady_clock::now();
  fmt::print("{:<36} {:<22} {:<14} {:>10} {:>9}  {}\n", "task", "impl", "small configs", "perf ms", "vs naive", "note");
  verify::GpuDatasetOptions o;
  o.perf = perf;
  o.jobs = jobs;
  o.timing.min_samples = samples;
  o.timing.budget_s = g_time_budget_s;
  // C-to-CUDA (none in the torch worker's CPU test mode): a row per implementation as each task ends
  auto on_task = [&](const verify::TaskOutcome& to) {
    const auto& t = *to.task;
    if (!to.reference_built) {
      fmt::print("{:<36} reference does not build\n", t.id);
      return;
    }
    nlohmann::json jt = {{"id", t.id}, {"results", nlohmann::json::array()}};
    for (const auto& r : to.results) {
      jt["results"].push_back(verify::result_json(r));
      if (!records.is_open()) continue;
      double floor_ms = -1;
      for (const auto& c : t.configs)
        if (c.name == r.config)
          if (auto rl = task::roofline(t, c, peaks); auto* v = std::get_if<task::Roofline>(&rl)) floor_ms = v->floor_s * 1e3;
      records << verify::record_json(verify::c2cuda_record(t, r, floor_ms, peaks_note), run).dump() << "\n";
    }
    for (const auto& s : to.impls)
      fmt::print("{:<36} {:<22} {:<14} {:>10} {:>9}  {}\n", t.id, s.impl, fmt::format("{}/{} ok", s.ok, s.total),
                 s.perf_ms > 0 ? fmt::format("{:.3f}", s.perf_ms) : "-",
                 s.perf_ms > 0 && s.naive_ms > 0 ? fmt::format("{:.2f}x", s.naive_ms / s.perf_ms) : "-", s.note.substr(0, 160));
    out["tasks"].push_back(jt);
  };
  verify::GpuDatasetRun c2;
  if (!torch_cpu_test) c2 = verify::check_gpu_dataset(root, o, on_task);
  const auto& tasks = c2.tasks;
  const auto& stages = c2.stages;
  size_t failures = c2.failures;
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
        if (records.is_open()) records << verify::record_json(torch2cuda::torch_record(t, im.strategy, c, rep), run).dump() << "\n";
      }
      bool bad = rep.base.verdict != verify::Verdict::Ok || ok != total;
      failures += bad;
      std::string eager;
      for (const auto& [cfg, e] : rep.eager_ms)
        if (ms > 0 && e > 0) eager = fmt::format("{:.2f}x", e / ms);
      fmt::print("{:<36} {:<22} {:<14} {:>10} {:>9}  {}\n", t.id, im.strategy, fmt::format("{}/{} ok", ok, total),
                 ms > 0 ? fmt::format("{:.3f}", ms) : "-", eager.empty() ? "-" : eager + " eager",
                 rep.base.verdict == verify::Verdict::Ok ? ""
                 : fmt::format("{}: {}", verify::verdict_name(rep.base.verdict), rep.base.message.substr(0, 160)));
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
  out["time_s"] = {{"total", total_s}, {"compile", c2.compile_s}, {"sources", c2.sources}, {"cached", c2.cached},
                   {"workers", stages.workers}, {"retimed", stages.retimed}};
  verify::for_each_stage(stages, [&](const char* name, double v) { out["time_s"][name] = v; });
  // Compile latency per CUDA source (the references are gcc): cold builds and cache hits.
  const auto& cold = c2.cold_s;
  const auto& warm = c2.cached_s;
  for (const auto* v : {&cold, &warm}) {
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
    fmt::print("  compile            {:8.1f} s {:5.1f} %  ({} sources, {} from the cache)\n", c2.compile_s, pct(c2.compile_s), c2.sources, c2.cached);
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

void add_check_gpu_command(CLI::App& tasks) {
  static std::string path, json;
  static unsigned jobs = 0;
  static bool no_perf = false;
  static int samples = 10;
  auto* gpu = tasks.add_subcommand("check-gpu", "Run every implementation on the GPU against the C reference (small configs) and time them (perf configs)");
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
}

}  // namespace cudaperf::cli

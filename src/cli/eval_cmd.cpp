// `cudaperf eval --task ID --candidate FILE.cu [--json] [--no-gpu]`
#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/timing/peaks.hpp"
#include "cudaperf/verify/evaluate.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;
namespace {

// Exit codes (README): 0 ok, 1 any other verdict, 2 bad usage (unknown task, unreadable file),
// 3 the CPU-side checks passed but the GPU stages were skipped (no GPU, or --no-gpu), 4 the task or the
// engine failed (verdict task_error: none of the candidate).
constexpr int kExitOk = 0, kExitVerdict = 1, kExitUsage = 2, kExitGpuSkipped = 3, kExitTaskError = 4;

int exit_code(const verify::EvalReport& r) {
  if (r.verdict == verify::Verdict::TaskError) return kExitTaskError;
  if (r.verdict != verify::Verdict::Ok) return kExitVerdict;
  return r.gpu_stages_run ? kExitOk : kExitGpuSkipped;
}
// Several candidates: the code of the worst, task_error > another verdict > GPU stages skipped > ok.
int worse_exit(int a, int b) {
  auto rank = [](int c) { return c == kExitTaskError ? 3 : c == kExitVerdict ? 2 : c == kExitGpuSkipped ? 1 : 0; };
  return rank(a) >= rank(b) ? a : b;
}

nlohmann::json to_json(const verify::EvalReport& r) {
  nlohmann::json j = {{"task", r.task_id}, {"candidate", r.candidate}, {"message", r.message}, {"device", r.device},
                      {"trusted_impl", r.trusted_impl}};
  j.update(verify::verdict_fields(r.verdict, r.gpu_stages_run));
  j["kernels"] = nlohmann::json::array();
  for (const auto& k : r.build.kernels)
    j["kernels"].push_back({{"name", k.name}, {"registers", k.registers}, {"barriers", k.barriers},
                            {"shared_static_bytes", k.shared_static}, {"stack_frame_bytes", k.stack_frame},
                            {"spill_store_bytes", k.spill_stores}, {"spill_load_bytes", k.spill_loads}});
  j["link"] = {{"imports", r.build.link.imports}, {"needed", r.build.link.needed}, {"violations", nlohmann::json::array()}};
  for (const auto& v : r.build.link.violations) j["link"]["violations"].push_back({{"symbol", v.symbol}, {"reason", v.reason}});
  j["configs"] = nlohmann::json::array();
  for (const auto& c : r.configs)
    j["configs"].push_back({{"config", c.config}, {"perf", c.perf}, {"status", c.status}, {"message", c.message},
                            {"median_ms", c.median_ms}, {"min_ms", c.min_ms}, {"q1_ms", c.q1_ms}, {"q3_ms", c.q3_ms},
                            {"rel_stdev", c.rel_stdev}, {"samples", c.samples}, {"discarded", c.discarded},
                            {"timed_calls", c.timed_calls}, {"sm_clock_mhz", c.sm_clock_mhz}, {"naive_median_ms", c.naive_median_ms},
                            {"c_baseline_ms", c.c_baseline_ms}, {"c_baseline_error", c.c_baseline_error},
                            {"roofline_floor_ms", c.roofline_floor_ms}, {"roofline_fraction", c.roofline_fraction}});
  j["peaks"] = r.peaks;
  if (r.speedup_vs_naive) j["speedup_vs_naive"] = *r.speedup_vs_naive;
  if (r.speedup_vs_c) j["speedup_vs_c"] = *r.speedup_vs_c;
  return j;
}

void print_report(const verify::EvalReport& r) {
  bool pending = verify::pending_gpu(r.verdict, r.gpu_stages_run);
  fmt::print("task:      {}\ncandidate: {}\nverdict:   {}\n", r.task_id, r.candidate,
             pending ? "none yet (CPU-side checks passed; the GPU stages decide)" : verify::verdict_name(r.verdict));
  if (!r.message.empty()) {
    std::string m = r.message;
    for (size_t p = 0; (p = m.find('\n', p)) != std::string::npos; p += 12) m.replace(p, 1, "\n           ");
    fmt::print("message:   {}\n", m);
  }
  if (!r.build.kernels.empty()) {
    fmt::print("kernels (ptxas):\n");
    for (const auto& k : r.build.kernels)
      fmt::print("  {:<48} {:>3} regs {:>6} B smem {:>2} barriers {:>4} B stack {:>4} B spills\n", k.name.substr(0, 48),
                 k.registers, k.shared_static, k.barriers, k.stack_frame, k.spill_stores + k.spill_loads);
  }
  fmt::print("device:    {}\n", r.device);
  if (!r.gpu_stages_run) {
    fmt::print("GPU stages: skipped\n");
    return;
  }
  fmt::print("{:<14} {:<14} {:>10} {:>8} {:>8} {:>10} {:>9} {:>10} {:>9}  {}\n", "config", "status", "median ms", "IQR ms",
             "samples", "naive ms", "vs naive", "C -O3 ms", "vs C", "note");
  for (const auto& c : r.configs)
    fmt::print("{:<14} {:<14} {:>10} {:>8} {:>8} {:>10} {:>9} {:>10} {:>9}  {}\n", c.config, c.status,
               c.median_ms > 0 ? fmt::format("{:.4f}", c.median_ms) : "-",
               c.q3_ms >= 0 ? fmt::format("{:.4f}", c.q3_ms - c.q1_ms) : "-", c.samples > 0 ? std::to_string(c.samples) : "-",
               c.naive_median_ms > 0 ? fmt::format("{:.4f}", c.naive_median_ms) : "-",
               c.median_ms > 0 && c.naive_median_ms > 0 ? fmt::format("{:.2f}x", c.naive_median_ms / c.median_ms) : "-",
               c.c_baseline_ms > 0 ? fmt::format("{:.3f}", c.c_baseline_ms) : "-",
               c.median_ms > 0 && c.c_baseline_ms > 0 ? fmt::format("{:.1f}x", c.c_baseline_ms / c.median_ms) : "-",
               c.status == "ok" ? c.c_baseline_error.substr(0, 80) : c.message.substr(0, 120));
  for (const auto& c : r.configs)
    if (c.perf && c.timed_calls > 0)
      fmt::print("{}: {} timed calls on two alternating input sets, every output checked on the device; SM clock {}; "
                 "{} samples discarded (clock under 75 % of max)\n",
                 c.config, c.timed_calls, c.sm_clock_mhz > 0 ? fmt::format("{:.0f} MHz median", c.sm_clock_mhz) : "unknown",
                 c.discarded);
  for (const auto& c : r.configs)
    if (c.roofline_fraction > 0)
      fmt::print("{}: roofline floor {:.4f} ms (task cost model over the device peaks), {:.0f} % of the roofline\n", c.config,
                 c.roofline_floor_ms, 100 * c.roofline_fraction);
  if (!r.peaks.empty()) fmt::print("peaks: {}\n", r.peaks);
  if (r.speedup_vs_naive) fmt::print("speedup vs naive (geomean over perf configs): {:.2f}x\n", *r.speedup_vs_naive);
  if (r.speedup_vs_c) fmt::print("speedup vs C -O3, one core (geomean over perf configs): {:.1f}x\n", *r.speedup_vs_c);
}

int eval_torch(const fs::path& root, const std::string& task_id, const std::vector<std::string>& candidates, bool json, bool no_gpu) {
  auto dir = task::find_torch_task_by_id(root, task_id);
  if (!dir) {
    fmt::print(stderr, "cudaperf eval: no task '{}' under {}\n", task_id, root.string());
    return kExitUsage;
  }
  auto t = task::load_torch_task(*dir);
  if (!t) {
    for (const auto& d : t.errors()) fmt::print(stderr, "{}\n", d.to_string());
    return kExitUsage;
  }
  torch2cuda::TorchEvalOptions o;
  o.run_gpu = !no_gpu;
  o.timing.budget_s = g_time_budget_s;
  o.mode = g_torch_mode;
  std::vector<fs::path> paths(candidates.begin(), candidates.end());
  auto reps = torch2cuda::evaluate_torch_candidates(t.value(), paths, o);
  if (reps.size() > 1) {  // one run: shared reference, inputs and baselines; a JSON array or a table
    int code = kExitOk;
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& r : reps) {
      arr.push_back(r.to_json());
      code = worse_exit(code, exit_code(r.base));
    }
    if (json) {
      fmt::print("{}\n", arr.dump(2));
    } else {
      for (const auto& r : reps)
        fmt::print("{:<40} {:<16} {:>8}  {}\n", r.base.candidate,
                   verify::verdict_name(r.base.verdict),
                   r.speedup_vs_eager ? fmt::format("{:.2f}x", *r.speedup_vs_eager) : "-", r.base.message.substr(0, 160));
    }
    return code;
  }
  const auto& rep = reps.front();
  const auto& b = rep.base;
  if (json) {
    fmt::print("{}\n", rep.to_json().dump(2));
  } else {
    bool pending = verify::pending_gpu(b.verdict, b.gpu_stages_run);
    fmt::print("task:      {}\ncandidate: {}\nverdict:   {}\n", b.task_id, b.candidate,
               b.verdict == verify::Verdict::TaskError ? "none (task_error: the task or the engine failed, not the candidate)"
               : pending             ? "none yet (static guards passed; the GPU stages decide)"
                                     : verify::verdict_name(b.verdict));
    if (!b.message.empty()) fmt::print("message:   {}\n", b.message);
    fmt::print("device:    {}\n", b.device);
    if (!rep.sandbox.empty()) fmt::print("sandbox:   {}\n", rep.sandbox);
    if (rep.build.contains("seconds"))
      fmt::print("build:     {:.2f} s, {} extension(s), {} from the cache\n", rep.build.value("seconds", 0.0),
                 rep.build["extensions"].size(), rep.build.value("cache_hits", 0));
    if (b.gpu_stages_run) {
      fmt::print("{:<14} {:<14} {:>10} {:>8} {:>8} {:>10} {:>10}  {}\n", "config", "status", "median ms", "IQR ms", "samples",
                 "eager ms", "compile ms", "note");
      for (const auto& c : b.configs) {
        auto e = rep.eager_ms.find(c.config);
        auto k = rep.compile_ms.find(c.config);
        fmt::print("{:<14} {:<14} {:>10} {:>8} {:>8} {:>10} {:>10}  {}\n", c.config, c.status,
                   c.median_ms > 0 ? fmt::format("{:.4f}", c.median_ms) : "-",
                   c.q3_ms >= 0 && c.median_ms > 0 ? fmt::format("{:.4f}", c.q3_ms - c.q1_ms) : "-",
                   c.samples > 0 ? std::to_string(c.samples) : "-", e != rep.eager_ms.end() ? fmt::format("{:.4f}", e->second) : "-",
                   k != rep.compile_ms.end() ? fmt::format("{:.4f}", k->second) : "-", c.message.substr(0, 120));
      }
      if (rep.speedup_vs_eager) fmt::print("speedup vs eager PyTorch (geomean over perf configs): {:.2f}x\n", *rep.speedup_vs_eager);
      if (rep.speedup_vs_compile) fmt::print("speedup vs torch.compile (geomean over perf configs): {:.2f}x\n", *rep.speedup_vs_compile);
    } else {
      fmt::print("GPU stages: skipped\n");
    }
  }
  return exit_code(b);
}

}  // namespace

void add_peaks_command(CLI::App& app) {
  auto* pk = app.add_subcommand("peaks", "Measure (once per device, then cached) the GPU's memory bandwidth (copy, "
                                         "read-only, write-only; floors use the fastest) and FMA rates that roofline "
                                         "floors are computed against");
  static bool remeasure = false, json = false;
  pk->add_flag("--remeasure", remeasure, "ignore the cached values and measure again");
  pk->add_flag("--json", json, "print JSON");
  pk->callback([] {
    g_action = [] {
      auto m = timing::device_peaks(compile::default_cache_dir(), remeasure);
      if (auto* err = std::get_if<std::string>(&m)) {
        fmt::print(stderr, "cudaperf peaks: {} (nothing measured; exit code 3)\n", *err);
        return kExitGpuSkipped;
      }
      const auto& p = std::get<timing::MeasuredPeaks>(m);
      if (json)
        fmt::print("{}\n", nlohmann::json{{"device", p.device}, {"copy_bytes_per_s", p.copy_bytes_per_s},
                                          {"read_bytes_per_s", p.read_bytes_per_s}, {"write_bytes_per_s", p.write_bytes_per_s},
                                          {"memory_bytes_per_s", p.memory_bytes_per_s()},
                                          {"fp32_flops_per_s", p.fp32_flops_per_s}, {"fp64_flops_per_s", p.fp64_flops_per_s},
                                          {"measured_at", p.measured_at}, {"from_cache", p.from_cache}}
                                .dump(2));
      else
        fmt::print("device: {}\ncopy bandwidth (device to device, read + write): {:.3f} TB/s\n"
                   "read-only stream: {:.3f} TB/s\nwrite-only fill: {:.3f} TB/s\n"
                   "memory bandwidth for roofline floors (the fastest): {:.3f} TB/s\n"
                   "fp32 FMA: {:.2f} TFLOP/s\nfp64 FMA: {:.2f} TFLOP/s\nmeasured {}{}\n",
                   p.device, p.copy_bytes_per_s / 1e12, p.read_bytes_per_s / 1e12, p.write_bytes_per_s / 1e12,
                   p.memory_bytes_per_s() / 1e12, p.fp32_flops_per_s / 1e12, p.fp64_flops_per_s / 1e12,
                   p.measured_at, p.from_cache ? " (from the cache)" : "");
      return kExitOk;
    };
  });
}

void add_eval_command(CLI::App& app) {
  auto* ev = app.add_subcommand("eval", "Evaluate a candidate .cu against a task: build, link allowlist, "
                                        "correctness on every config, timing vs the naive impl");
  static std::string task_id, root;
  static std::vector<std::string> candidates;
  static bool json = false, no_gpu = false;
  static std::string dataset, records;
  auto* task_opt = ev->add_option("--task", task_id, "task id, e.g. reduction/sum_f32");
  auto* cand_opt = ev->add_option("--candidate", candidates, "the candidate .cu file (torch2cuda tasks: a ModelNew .py; "
                                                            "repeat it to evaluate several in one run, sharing inputs and baselines)");
  auto* ds_opt = ev->add_option("--dataset", dataset, "evaluate every implementation of every task under this folder "
                                                       "and append measured records (JSONL)");
  ev->add_option("--records", records, "records file for --dataset (default data/records/<date>-<device>.jsonl)");
  task_opt->excludes(ds_opt);
  cand_opt->excludes(ds_opt);
  ev->add_option("--root", root, "dataset folder (default: data/tasks)");
  ev->add_flag("--json", json, "print the report as JSON");
  ev->add_flag("--no-gpu", no_gpu, "CPU-side checks only (build, resources, link allowlist)");
  ev->add_option("--mode", g_torch_mode, "torch2cuda: evaluation mode, strict (default) or kernelbench (docs/torch2cuda.md)")
      ->check(CLI::IsMember(torch2cuda::kTorchModes));
  static bool c_baseline = false;
  ev->add_option("--time-budget", g_time_budget_s, "seconds of sampling per perf config (default 2)")->check(CLI::Range(0.01, 3600.0));
  ev->add_flag("--c-baseline", c_baseline, "also time the C reference at -O3 on one core (speedup vs C)");
  ev->callback([] {
    g_action = [] {
      if (!dataset.empty()) {
        std::string out = records;
        if (out.empty()) {
          std::time_t now = std::time(nullptr);
          char buf[16];
          std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
          out = fmt::format("data/records/{}-gpu.jsonl", buf);
        }
        return check_gpu(dataset, true, 0, "", 10, out);  // uses g_time_budget_s
      }
      if (task_id.empty() || candidates.empty()) {
        fmt::print(stderr, "cudaperf eval: give --task and --candidate, or --dataset\n");
        return kExitUsage;
      }
      fs::path r = root.empty() ? default_root() : fs::path(root);
      for (const auto& c : candidates)
        if (!fs::is_regular_file(c)) {
          fmt::print(stderr, "cudaperf eval: cannot read candidate '{}'\n", c);
          return kExitUsage;
        }
      if (task_id.rfind("torch2cuda/", 0) == 0) return eval_torch(r, task_id, candidates, json, no_gpu);
      if (candidates.size() > 1) {
        fmt::print(stderr, "cudaperf eval: a C-to-CUDA task takes one --candidate per run (several in one run: "
                           "torch2cuda tasks, or C-to-CUDA batches through `cudaperf serve`)\n");
        return kExitUsage;
      }
      const std::string& candidate = candidates.front();
      auto dir = task::find_task_by_id(r, task_id);
      if (!dir) {
        fmt::print(stderr, "cudaperf eval: no task '{}' under {}\n", task_id, r.string());
        return kExitUsage;
      }
      auto t = task::load_task(*dir);
      if (!t) {
        for (const auto& d : t.errors()) fmt::print(stderr, "{}\n", d.to_string());
        return kExitUsage;
      }
      verify::EvalOptions o;
      o.run_gpu = !no_gpu;
      o.c_baseline = c_baseline;
      o.gpu.timing.budget_s = g_time_budget_s;
      auto rep = verify::evaluate_candidate(t.value(), candidate, o);
      if (json) fmt::print("{}\n", to_json(rep).dump(2));
      else print_report(rep);
      return exit_code(rep);
    };
  });
}

}  // namespace cudaperf::cli

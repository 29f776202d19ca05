// `cudaperf analyze FILE.cu [--task ID] [--root DIR] [--json] [--dynamic] [--block-size N]
//                   [--dynamic-smem BYTES] [--time-ms MS [--config NAME]] [--peak-bw B/s] [--peak-fp32 FLOP/s]`
// Static structural analysis of a CUDA file (docs/analysis.md).
#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.hpp"
#include "cudaperf/analysis/dynamic.hpp"
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/timing/peaks.hpp"
#include "cudaperf/util/parallel.hpp"

#include <iostream>

namespace cudaperf::cli {

namespace fs = std::filesystem;

namespace {

// Exit codes (docs/analysis.md): 0 report written; 1 the file does not compile; 2 bad usage
// (missing file, unknown task or config, bad option); 3 --dynamic was asked for but dynamic
// analysis is not available here (the static report is still written).
constexpr int kExitOk = 0, kExitCompile = 1, kExitUsage = 2, kExitNoDynamic = 3;

}  // namespace

// `cudaperf profile-target (--task ID --candidate FILE | --all) [--root DIR] [--config NAME]`:
// the program `analyze --dynamic` runs under Nsight Compute. Runs each implementation once, in
// this process, on its own stream; one JSON line per implementation on stdout.
void add_profile_target_command(CLI::App& app) {
  static std::string task_id, candidate, root, config;
  static bool all = false, list_metrics = false;
  auto* cmd = app.add_subcommand("profile-target", "Run implementations once each at one task config, for Nsight "
                                                   "Compute (used by analyze --dynamic; not sandboxed)");
  cmd->add_option("--task", task_id, "task id");
  cmd->add_option("--candidate", candidate, "the .cu file to run (with --task)");
  cmd->add_flag("--all", all, "every implementation of every task under --root");
  cmd->add_option("--root", root, "dataset folder (default: data/tasks)");
  cmd->add_option("--config", config, "task config (default: the largest non-perf config)");
  cmd->add_flag("--list-metrics", list_metrics, "print the Nsight Compute metrics analyze --dynamic collects, comma-separated");
  cmd->callback([] {
    g_action = [] {
      if (list_metrics) {
        std::string m;
        for (const auto& x : analysis::ncu_metrics()) m += (m.empty() ? "" : ",") + x;
        fmt::print("{}\n", m);
        return kExitOk;
      }
      fs::path r = root.empty() ? default_root() : fs::path(root);
      std::vector<std::pair<task::Task, fs::path>> sources;  // (task, .cu)
      std::vector<std::string> names;
      if (all) {
        for (const auto& d : task::find_task_dirs(r)) {
          auto t = task::load_task(d);
          if (!t) continue;
          for (const auto& im : t->impls) {
            sources.push_back({t.value(), im.path});
            names.push_back(im.strategy);
          }
        }
      } else {
        if (task_id.empty() || candidate.empty()) {
          fmt::print(stderr, "cudaperf profile-target: give --task and --candidate, or --all\n");
          return kExitUsage;
        }
        auto d = task::find_task_by_id(r, task_id);
        auto t = d ? task::load_task(*d) : Result<task::Task>(Diagnostic{task_id, 0, 0, "no such task under " + r.string()});
        if (!t) {
          fmt::print(stderr, "cudaperf profile-target: {}\n", t.errors().front().to_string());
          return kExitUsage;
        }
        sources.push_back({t.value(), candidate});
        names.push_back("candidate");
      }
      std::vector<compile::Artifact> built(sources.size());
      parallel_for(sources.size(), default_jobs(), [&](size_t i) { built[i] = compile::compile_cuda(sources[i].first, sources[i].second); });
      std::vector<analysis::ProfileItem> items;
      for (size_t i = 0; i < sources.size(); ++i) {
        if (!built[i].ok) {
          fmt::print(stderr, "cudaperf profile-target: {} does not build\n", sources[i].second.string());
          return kExitCompile;
        }
        items.push_back({sources[i].first, names[i], built[i].path});
      }
      return analysis::run_profile_target(items, config, std::cout);
    };
  });
}

void add_analyze_command(CLI::App& app) {
  static std::string file, task_id, root, config;
  static bool json = false, dynamic = false;
  static int block_size = 0, dynamic_smem = -1;
  static double time_ms = -1, peak_bw = 0, peak_fp32 = 0, peak_fp64 = 0;
  auto* cmd = app.add_subcommand(
      "analyze", "Static structural analysis of a .cu file: coalescing, occupancy, intensity/roofline, synchronisation");
  cmd->add_option("file", file, "the CUDA source file")->required();
  cmd->add_option("--task", task_id, "task id (e.g. elementwise/saxpy): its cost model gives the roofline");
  cmd->add_option("--root", root, "dataset folder (default: data/tasks)");
  cmd->add_flag("--json", json, "print the report as JSON");
  cmd->add_flag("--dynamic", dynamic, "also measure with Nsight Compute (needs a GPU and ncu)");
  cmd->add_option("--block-size", block_size, "threads per block for kernels without __launch_bounds__ (default: from the host launch, else 256 assumed)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--dynamic-smem", dynamic_smem, "dynamic shared memory per block in bytes (default: from the host launch, else 0 assumed)")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--time-ms", time_ms, "a measured kernel time in ms: gives the roofline fraction (needs --task)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--config", config, "the task config --time-ms was measured on (default: the first perf config), and the one --dynamic runs (default: the same perf config)");
  cmd->add_option("--peak-bw", peak_bw, "memory bandwidth in B/s (default 4.0e12, not measured)")->check(CLI::PositiveNumber);
  cmd->add_option("--peak-fp32", peak_fp32, "FP32 peak in FLOP/s (default 6.0e13, not measured)")->check(CLI::PositiveNumber);
  cmd->add_option("--peak-fp64", peak_fp64, "FP64 peak in FLOP/s (default 3.0e13, not measured)")->check(CLI::PositiveNumber);
  cmd->callback([] {
    g_action = [] {
      analysis::AnalyzeOptions o;
      o.task_id = task_id;
      o.task_root = root.empty() ? default_root() : fs::path(root);
      o.dynamic = dynamic;
      o.block_size = block_size;
      o.dynamic_smem = dynamic_smem;
      o.config = config;
      if (time_ms > 0) o.measured_ms = time_ms;
      // With a GPU, the device's measured peaks (cudaperf peaks; measured once, cached) replace the
      // defaults, as in eval; options still win.
      if (peak_bw <= 0 && peak_fp32 <= 0 && peak_fp64 <= 0 && analysis::gpu_present())
        if (auto m = timing::device_peaks(compile::default_cache_dir()); std::holds_alternative<timing::MeasuredPeaks>(m)) {
          const auto& p = std::get<timing::MeasuredPeaks>(m);
          o.peaks.bandwidth_bytes_per_s = p.memory_bytes_per_s();
          o.peaks.fp32_flops_per_s = p.fp32_flops_per_s;
          o.peaks.fp64_flops_per_s = p.fp64_flops_per_s;
          o.peaks.measured = true;
        }
      if (peak_bw > 0) o.peaks.bandwidth_bytes_per_s = peak_bw;
      if (peak_fp32 > 0) o.peaks.fp32_flops_per_s = peak_fp32;
      if (peak_fp64 > 0) o.peaks.fp64_flops_per_s = peak_fp64;
      if (!config.empty() && task_id.empty()) {
        fmt::print(stderr, "cudaperf analyze: --config needs --task\n");
        return kExitUsage;
      }
      analysis::AnalyzeFailure why = analysis::AnalyzeFailure::None;
      auto rep = analysis::analyze_file(file, o, &why);
      if (!rep) {
        for (const auto& d : rep.errors()) fmt::print(stderr, "cudaperf analyze: {}\n", d.to_string());
        return why == analysis::AnalyzeFailure::Compile ? kExitCompile : kExitUsage;
      }
      nlohmann::json report = std::move(rep).value();
      int rc = kExitOk;
      std::string dyn_message;
      if (dynamic) {
        if (!analysis::gpu_present()) {
          dyn_message = "dynamic analysis needs a GPU and Nsight Compute (ncu); no GPU was found, so only the static "
                        "values are reported";
          rc = kExitNoDynamic;
        } else {
          auto d = analysis::dynamic_metrics(file, report, o);
          if (d) {
            report["dynamic"] = {{"requested", true}, {"available", true}, {"metrics", d.value()}};
          } else {
            dyn_message = d.errors().front().message;
            rc = kExitNoDynamic;
          }
        }
        if (rc == kExitNoDynamic) report["dynamic"] = {{"requested", true}, {"available", false}, {"reason", dyn_message}};
      }
      if (json)
        fmt::print("{}\n", report.dump(2));
      else
        fmt::print("{}", analysis::render_text(report));
      if (!dyn_message.empty()) fmt::print(stderr, "cudaperf analyze: {}\n", dyn_message);
      return rc;
    };
  });
}

}  // namespace cudaperf::cli

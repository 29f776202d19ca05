// `cudaperf serve` (the reward service, docs/serve.md) and `cudaperf serve-worker` (its worker
// processes; started by serve).
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cudaperf/serve/service.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

void add_serve_command(CLI::App& app) {
  static serve::ServiceOptions so;
  static std::string root, config = default_file("config/reward.toml"), model = default_file("data/models/ranker.json");
  auto* sv = app.add_subcommand("serve", "The reward service: HTTP API over a durable job queue and one worker per GPU");
  sv->add_option("--host", so.host, "address to listen on (default 127.0.0.1)");
  sv->add_option("--port", so.port, "port (default 8080)")->check(CLI::Range(1, 65535));
  sv->add_option("--store", so.store, "SQLite job store (default cudaperf-jobs.sqlite)");
  sv->add_option("--workers", so.workers, "worker processes (default: one per visible GPU, 1 without)")->check(CLI::Range(0, 256));
  sv->add_option("--workers-per-gpu", so.workers_per_gpu,
                 "workers per GPU: compiling and input preparation overlap, the device is taken in turns (default 1)")
      ->check(CLI::Range(1, 64));
  sv->add_option("--batch", so.batch, "queued jobs of one task evaluated in one GPU run (default 8)")->check(CLI::Range(1, 256));
  sv->add_option("--queue-limit", so.queue_limit, "queued jobs before 429 (default 1000)")->check(CLI::Range(1, 10000000));
  sv->add_option("--root", root, "dataset folder (default: data/tasks)");
  sv->add_option("--config", config, "reward config (default config/reward.toml)");
  sv->add_option("--model", model, "ranker model (default data/models/ranker.json)");
  sv->add_option("--time-budget", so.time_budget_s, "sampling seconds per perf config (default 1)")->check(CLI::Range(0.01, 3600.0));
  sv->add_flag("--cpu-test-mode", so.cpu_test_mode,
              "without a GPU, score anyway (CPU stages only, results not final; for tests): otherwise refused with HTTP 409");
  sv->callback([] {
    g_action = [] {
      so.root = root.empty() ? default_root() : fs::path(root);
      so.config = config;
      so.model = model;
      return serve::run_service(so);
    };
  });
  static serve::WorkerOptions wo;
  auto* wk = app.add_subcommand("serve-worker", "One worker of `cudaperf serve` (started by it)");
  wk->add_option("--store", wo.store, "job store")->required();
  wk->add_option("--worker", wo.id, "worker id")->required();
  wk->add_option("--root", wo.root, "dataset folder")->required();
  wk->add_option("--config", wo.config, "reward config");
  wk->add_option("--model", wo.model, "ranker model");
  wk->add_option("--time-budget", wo.time_budget_s, "sampling seconds per perf config");
  wk->add_option("--batch", wo.batch, "jobs of one task per GPU run");
  wk->add_option("--gpu-lock", wo.gpu_lock, "file locked while the GPU runs");
  wk->callback([] { g_action = [] { return serve::run_worker(wo); }; });
}

}  // namespace cudaperf::cli

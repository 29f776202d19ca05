#pragma once
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <string>

namespace cudaperf::cli {

void add_tasks_command(CLI::App& app);
void add_tasks_stats_command(CLI::App& tasks);  // `tasks stats` (tasks_stats_cmd.cpp)
void add_check_gpu_command(CLI::App& tasks);    // `tasks check-gpu` (check_gpu_cmd.cpp)
void add_eval_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
void add_peaks_command(CLI::App& app);
void add_profile_target_command(CLI::App& app);
void add_rank_command(CLI::App& app);
void add_reward_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_import_command(CLI::App& app);  // import-kernelbench (torch2cuda)
void add_refine_command(CLI::App& app);

// The action the chosen subcommand set up, and the default dataset root.
extern std::function<int()> g_action;
// Sampling budget per perf config in seconds (DESIGN §4: 2 s by default).
extern double g_time_budget_s;
// torch2cuda evaluation mode of eval, tasks validate and check-gpu (--mode; torch2cuda::kTorchModes).
extern std::string g_torch_mode;
std::filesystem::path default_root();
// A bundled file (config/reward.toml, data/models/ranker.json): relative to the working directory
// when it is there, else in the source tree the binary was built from.
std::string default_file(const std::string& rel);
// Every implementation of every task under root on the GPU (tasks check-gpu, eval --dataset).
int check_gpu(const std::filesystem::path& root, bool perf, unsigned jobs, const std::string& json_path, int min_samples,
              const std::string& records_path);
// Runs the subcommand chosen on the command line; returns the process exit code.
int run_selected(CLI::App& app);

}  // namespace cudaperf::cli

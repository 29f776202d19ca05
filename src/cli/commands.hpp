#pragma once
#include <CLI/CLI.hpp>

namespace cudaperf::cli {

void add_tasks_command(CLI::App& app);
// Runs the subcommand chosen on the command line; returns the process exit code.
int run_selected(CLI::App& app);

}  // namespace cudaperf::cli

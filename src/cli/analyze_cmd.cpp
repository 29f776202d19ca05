// cudaperf analyze FILE.cu [--task ID] [--json] [--dynamic]  (placeholder: being written)
#include "cli/commands.hpp"

namespace cudaperf::cli {

void add_analyze_command(CLI::App&) {}

}  // namespace cudaperf::cli

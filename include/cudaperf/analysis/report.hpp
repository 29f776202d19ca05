// Per-kernel structural report: the four features (coalescing, occupancy, arithmetic intensity,
// synchronisation) as scores in [0, 1] with their raw numbers and one-line findings.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cudaperf/util/result.hpp"

namespace cudaperf::analysis {

struct AnalyzeOptions {
  std::string task_id;            // optional: cost model and launch shape from the task
  std::filesystem::path task_root;
  bool dynamic = false;           // run under Nsight Compute (needs a GPU)
};

// Builds FILE.cu (PTX with -lineinfo, ptxas resource usage) and analyses every kernel.
Result<nlohmann::json> analyze_file(const std::filesystem::path& cu, const AnalyzeOptions& o);

}  // namespace cudaperf::analysis

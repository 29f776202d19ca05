// Work done ahead of many torch2cuda evaluations (check-gpu over a dataset) so that they start warm.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"

namespace cudaperf::torch2cuda {

// Builds the extensions of many candidates in parallel (`jobs` build workers, 0: one per core) into
// the cache. One JSON per candidate: seconds, extensions, cache_hits, verdict (and message), or
// "skipped" when the static guards refuse it.
std::vector<nlohmann::json> prebuild_torch_candidates(const std::vector<std::filesystem::path>& candidates,
                                                      unsigned jobs = 0, double timeout_s = 900);

// Runs torch.compile of each task's reference at its perf configs once, in parallel (`jobs` workers),
// so the timed torch.compile baselines that follow find their graphs in the Inductor cache
// (TORCHINDUCTOR_CACHE_DIR, default <cudaperf cache>/inductor). Nothing is timed. One JSON per task.
std::vector<nlohmann::json> prewarm_torch_baselines(const std::vector<task::TorchTask>& tasks, unsigned jobs = 0,
                                                    double timeout_s = 900, const std::string& mode = "strict");

}  // namespace cudaperf::torch2cuda

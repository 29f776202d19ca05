// `cudaperf tasks validate` on torch2cuda folders: task.toml, the static rules on reference.py and
// every impl, and (with torch) the reference run twice per config plus the null-solution battery.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::torch2cuda {

struct TorchTaskCheck {
  std::filesystem::path dir;
  std::optional<task::TorchTask> task;
  std::vector<Diagnostic> problems;
  std::map<std::string, std::pair<int, int>> nulls;  // null -> (configs rejected, configs tested)
  std::string battery;  // "run", or "skipped: why"
};
struct TorchCheckOptions {
  bool battery = true;  // run the reference and the null battery when torch is importable
  unsigned jobs = 0;
  double reference_timeout_s = 300;
  std::string mode = "strict";  // evaluation mode of the battery (kTorchModes)
};
std::vector<TorchTaskCheck> check_torch_tasks(const std::filesystem::path& root, const TorchCheckOptions& o);

}  // namespace cudaperf::torch2cuda

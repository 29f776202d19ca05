#include "cudaperf/analysis/report.hpp"

namespace cudaperf::analysis {

Result<nlohmann::json> analyze_file(const std::filesystem::path&, const AnalyzeOptions&) {  // placeholder: being written
  return nlohmann::json::object();
}

}  // namespace cudaperf::analysis

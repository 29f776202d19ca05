// One kernel's part of the analyze report: resources, launch shape, occupancy, census,
// coalescing, intensity, sync, scores and findings.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cudaperf/analysis/launch_scan.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/compile/candidate.hpp"

namespace cudaperf::analysis::report_detail {

struct TaskContext {
  const task::Task* task = nullptr;
  std::optional<double> intensity;  // of the config the score uses
};

// The report of the kernel ptxas described as `res`; `k` is its PTX (nullptr when not found or
// when the PTX did not parse, `ptx_ok` says which).
nlohmann::json analyze_kernel(const compile::KernelResources& res, const PtxKernel* k, bool ptx_ok,
                              const AnalyzeOptions& o, const TaskContext& tc, bool module_uses_dynamic_smem,
                              const std::vector<LaunchSite>& launch_sites);

}  // namespace cudaperf::analysis::report_detail

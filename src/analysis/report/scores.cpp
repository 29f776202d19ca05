// The roofline and the feature scores of the analyze report (report.hpp; formulas:
// docs/analysis.md).
#include <algorithm>
#include <fmt/format.h>

#include "common.hpp"
#include "cudaperf/analysis/report.hpp"

namespace cudaperf::analysis {

using report_detail::total;

// ------------------------------------------------------------------------------------------------
// Roofline.

RooflinePoint roofline_point(double flops, double bytes, const DevicePeaks& peaks, bool fp64,
                             std::optional<double> measured_s) {
  RooflinePoint p;
  p.flops = flops;
  p.bytes = bytes;
  if (bytes > 0) p.intensity = flops / bytes;
  const double t_mem = bytes / peaks.bandwidth_bytes_per_s;
  const double t_fp = flops / peaks.flops_per_s(fp64);
  p.floor_s = std::max(t_mem, t_fp);
  p.bound = t_fp > t_mem ? "compute" : "memory";
  if (measured_s && *measured_s > 0) {
    p.measured_s = measured_s;
    p.fraction = p.floor_s / *measured_s;
  }
  return p;
}

Result<RooflinePoint> task_roofline(const task::Task& t, const task::Config& c, const DevicePeaks& peaks,
                                    std::optional<double> measured_s) {
  auto f = t.cost_flops.eval(c.sizes);
  if (auto* m = std::get_if<std::string>(&f)) return Diagnostic{t.id, 0, 0, fmt::format("config '{}': cost flops: {}", c.name, *m)};
  auto b = t.cost_bytes.eval(c.sizes);
  if (auto* m = std::get_if<std::string>(&b)) return Diagnostic{t.id, 0, 0, fmt::format("config '{}': cost bytes: {}", c.name, *m)};
  return roofline_point(static_cast<double>(std::get<int64_t>(f)), static_cast<double>(std::get<int64_t>(b)), peaks,
                        t.uses_double(), measured_s);
}

// ------------------------------------------------------------------------------------------------
// Scores.

CoalescingSummary coalescing_score(const std::vector<GlobalAccess>& accesses) {
  CoalescingSummary s;
  double sum = 0;
  for (const auto& a : accesses) {
    if (a.sectors <= 0 || a.ideal_sectors <= 0) {
      ++s.unknown;
      continue;
    }
    ++s.known;
    sum += std::min(1.0, static_cast<double>(a.ideal_sectors) / a.sectors);
  }
  if (s.known > 0) s.score = sum / s.known;
  return s;
}

double counted_flops(const Census& c) {
  return c.fp32_add + c.fp32_mul + 2.0 * c.fp32_fma + c.fp64_add + c.fp64_mul + 2.0 * c.fp64_fma + c.fp16;
}

double counted_global_bytes(const Census& c) {
  double b = 0;
  for (const auto* m : {&c.ld_global, &c.st_global})
    for (const auto& [width, count] : *m) b += static_cast<double>(width) * count;
  return b;
}

IntensitySummary intensity_score(const Census& c, const DevicePeaks& peaks, bool fp64,
                                 std::optional<double> task_intensity) {
  IntensitySummary s;
  s.flops = counted_flops(c);
  s.bytes = counted_global_bytes(c);
  if (s.bytes > 0) s.counted = s.flops / s.bytes;
  s.target = peaks.ridge(fp64);
  s.target_source = "ridge";
  if (task_intensity && *task_intensity < s.target) {
    s.target = *task_intensity;
    s.target_source = "task";
  }
  if (s.counted && s.target > 0) s.score = std::min(1.0, *s.counted / s.target);
  return s;
}

SyncSummary sync_score(const Census& c) {
  SyncSummary s;
  if (c.barriers_divergent > 0) {
    s.penalties.push_back({fmt::format("{} barrier(s) under a thread-dependent branch: threads that skip it deadlock "
                                       "the block or make its behaviour undefined",
                                       c.barriers_divergent),
                           1.0});
  }
  const int global_atomics = total(c.atomics_global);
  if (global_atomics > 0)
    s.penalties.push_back({fmt::format("{} global atomic instruction(s): they serialise when many threads hit one "
                                       "address (reduce per block first, one atomic per block)",
                                       global_atomics),
                           std::min(0.3, 0.1 * global_atomics)});
  if (c.fences > 0)
    s.penalties.push_back({fmt::format("{} memory fence(s): each waits for outstanding memory operations", c.fences),
                           std::min(0.2, 0.05 * c.fences)});
  double total = 0;
  for (const auto& p : s.penalties) total += p.amount;
  s.score = std::max(0.0, 1.0 - total);
  return s;
}

}  // namespace cudaperf::analysis

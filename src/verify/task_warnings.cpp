#include "cudaperf/verify/task_warnings.hpp"

#include <fmt/format.h>

namespace cudaperf::verify {

std::vector<Diagnostic> task_warnings(const task::Task& t, const WarningLimits& lim) {
  std::vector<Diagnostic> out;
  std::string file = (t.dir / "task.toml").string();
  for (const auto& c : t.configs) {
    if (!c.perf) continue;
    auto rl = task::roofline(t, c);
    if (auto* v = std::get_if<task::Roofline>(&rl); v && v->floor_s < lim.min_perf_floor_s)
      out.push_back({file, c.line, 0,
                     fmt::format("perf config '{}': the roofline floor is {:.1f} us (< {:.0f} us): launch overhead and "
                                 "timer resolution dominate; make it larger (the fastest impl should run >= 1 ms)",
                                 c.name, v->floor_s * 1e6, lim.min_perf_floor_s * 1e6)});
  }
  for (auto [name, v] : {std::pair<const char*, double>{"rtol", t.rtol}, {"atol", t.atol}})
    if (v > lim.max_tolerance)
      out.push_back({file, 0, 0,
                     fmt::format("tolerance {} = {} is above {}: a wrong answer close to the right one passes; "
                                 "see docs/task-format.md (choosing tolerances)", name, v, lim.max_tolerance)});
  return out;
}

std::vector<Diagnostic> reference_time_warnings(const task::Task& t, double seconds, int calls, const WarningLimits& lim) {
  if (calls <= 0 || seconds / calls <= lim.max_reference_call_s) return {};
  return {{t.reference.string(), 0, 0,
           fmt::format("the reference took {:.1f} s per call on the CPU gates (> {:.0f} s): keep the non-perf configs "
                       "small; `eval --c-baseline` runs it at the perf size", seconds / calls, lim.max_reference_call_s)}};
}

}  // namespace cudaperf::verify

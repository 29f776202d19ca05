// config/timing.toml, parsed once (rules.hpp).
#include "cudaperf/timing/rules.hpp"

#include <algorithm>

#include "cudaperf/util/rule_files.hpp"

namespace cudaperf::timing {

namespace {
TimingRules parse_rules() {
  namespace rf = rule_files;
  constexpr std::string_view file = "timing.toml";
  const toml::table t = rf::parse(rf::timing_toml(), file);
  TimingRules r;
  r.min_samples = rf::get<int>(t, "stopping_rule.min_samples", file);
  r.max_samples = rf::get<int>(t, "stopping_rule.max_samples", file);
  r.target_rel_stdev = rf::get<double>(t, "stopping_rule.target_rel_stdev", file);
  r.budget_s = rf::get<double>(t, "stopping_rule.budget_s", file);
  r.budget_floor = rf::get<int>(t, "stopping_rule.budget_floor", file);
  r.attempts_factor = rf::get<int>(t, "stopping_rule.attempts_factor", file);
  r.stream_excess_fraction = rf::get<double>(t, "stream_rule.excess_fraction", file);
  r.stream_excess_floor_ms = rf::get<double>(t, "stream_rule.excess_floor_ms", file);
  r.throttle_fraction = rf::get<double>(t, "clock.throttle_fraction", file);
  r.l2_flush_multiple = rf::get<int>(t, "l2_flush.l2_multiple", file);
  r.l2_flush_min_bytes = rf::get<size_t>(t, "l2_flush.min_bytes", file);
  r.l2_flush_unknown_l2_bytes = rf::get<long long>(t, "l2_flush.unknown_l2_bytes", file);
  return r;
}
}  // namespace

const TimingRules& rules() {
  static const TimingRules r = parse_rules();
  return r;
}

bool clock_throttled(double mhz, double max_mhz) { return mhz > 0 && max_mhz > 0 && mhz < rules().throttle_fraction * max_mhz; }

size_t l2_flush_bytes(long long l2_bytes) {
  const auto& r = rules();
  const long long l2 = l2_bytes > 0 ? l2_bytes : std::max(r.l2_flush_unknown_l2_bytes, 0LL);
  return std::max(static_cast<size_t>(l2) * static_cast<size_t>(r.l2_flush_multiple), r.l2_flush_min_bytes);
}

}  // namespace cudaperf::timing

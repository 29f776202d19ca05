#include "cudaperf/timing/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

namespace cudaperf::timing {

namespace {
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}
}  // namespace

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.samples = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = quantile(samples, 0.5);
  s.q1 = quantile(samples, 0.25);
  s.q3 = quantile(samples, 0.75);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  if (samples.size() > 1 && s.mean != 0) {
    double ss = 0;
    for (double x : samples) ss += (x - s.mean) * (x - s.mean);
    s.rel_stdev = std::sqrt(ss / static_cast<double>(samples.size() - 1)) / std::fabs(s.mean);
  }
  return s;
}

const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::Converged: return "converged";
    case StopReason::Budget: return "time_budget";
    case StopReason::MaxSamples: return "max_samples";
    case StopReason::Failed: return "failed";
  }
  return "?";
}

Measurement measure(const std::function<double(bool& throttled)>& sample, const StoppingRule& rule) {
  Measurement m;
  std::vector<double> kept;
  int discarded = 0;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  m.reason = StopReason::MaxSamples;  // also when throttled samples use up every attempt
  for (int attempt = 0; attempt < rule.max_samples * rules().attempts_factor; ++attempt) {
    bool throttled = false;
    double v = sample(throttled);
    if (v < 0) {
      m.reason = StopReason::Failed;
      m.summary = summarize(kept);
      m.summary.discarded = discarded;
      return m;
    }
    if (throttled) ++discarded;
    else kept.push_back(v);
    int n = static_cast<int>(kept.size());
    if (n >= rule.min_samples) {
      if (summarize(kept).rel_stdev < rule.target_rel_stdev) {
        m.reason = StopReason::Converged;
        break;
      }
      if (n >= rule.max_samples) {
        m.reason = StopReason::MaxSamples;
        break;
      }
    }
    if (elapsed() >= rule.budget_s && n >= std::min(rule.min_samples, rules().budget_floor)) {
      m.reason = StopReason::Budget;
      break;
    }
  }
  m.summary = summarize(kept);
  m.summary.discarded = discarded;
  return m;
}

bool outside_stream(double median_excess_ms, double median_ms) {
  return median_ms > 0 && median_excess_ms > rules().stream_excess_fraction * median_ms + rules().stream_excess_floor_ms;
}

StreamRuleTiming time_with_stream_rule(const std::function<Window()>& window, std::chrono::milliseconds pause) {
  StreamRuleTiming t{window(), std::nullopt};
  if (t.reported.m.reason != StopReason::Failed && outside_stream(t.reported.excess_ms, t.reported.m.summary.median)) {
    t.first = t.reported;
    std::this_thread::sleep_for(pause);
    t.reported = window();
  }
  return t;
}

Measurement measure_cpu(const std::function<void()>& fn, const StoppingRule& rule) {
  fn();  // warm-up, identical to the timed calls
  return measure(
      [&](bool&) {
        auto a = std::chrono::steady_clock::now();
        fn();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
      },
      rule);
}

}  // namespace cudaperf::timing

// Sample statistics and the stopping rule of the timing protocol (DESIGN §4), independent of
// where the samples come from (CUDA events, or the CPU clock for the C baseline).
#pragma once
#include <chrono>
#include <functional>
#include <vector>

namespace cudaperf::timing {

struct Summary {
  int samples = 0;          // kept samples
  int discarded = 0;        // dropped (e.g. taken while the SM clock was throttled)
  double median = 0, min = 0, max = 0, mean = 0;
  double q1 = 0, q3 = 0;    // quartiles (linear interpolation); IQR = q3 - q1
  double rel_stdev = 0;     // sample standard deviation / mean
  double iqr() const { return q3 - q1; }
};

// Summarises `samples` (any unit). Empty input gives samples = 0 and zeros.
Summary summarize(std::vector<double> samples);

struct StoppingRule {
  int min_samples = 10;
  int max_samples = 1000;
  double target_rel_stdev = 0.005;  // stop once the relative stdev is under 0.5 %
  double budget_s = 2.0;            // or once this much wall time was spent sampling
};

// Why sampling stopped.
enum class StopReason { Converged, Budget, MaxSamples, Failed };
const char* stop_reason_name(StopReason r);

struct Measurement {
  Summary summary;
  StopReason reason = StopReason::Failed;
};

// Calls `sample()` (which returns one timing, or a negative value on failure, and may report
// itself as throttled through `throttled`) until the rule says stop.
Measurement measure(const std::function<double(bool& throttled)>& sample, const StoppingRule& rule);

// Times a CPU function with the steady clock under the same rule (seconds per call): the
// sequential C baseline of speedups.
Measurement measure_cpu(const std::function<void()>& fn, const StoppingRule& rule);

}  // namespace cudaperf::timing

// Sample statistics and the stopping rule of the timing protocol (DESIGN §4), independent of
// where the samples come from (CUDA events, or the CPU clock for the C baseline).
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "cudaperf/timing/rules.hpp"

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

// Defaults: config/timing.toml [stopping_rule].
struct StoppingRule {
  int min_samples = rules().min_samples;
  int max_samples = rules().max_samples;
  double target_rel_stdev = rules().target_rel_stdev;  // stop once the relative stdev is under it
  double budget_s = rules().budget_s;                  // or once this much wall time was spent sampling
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

// The stream rule (DESIGN §4): work an implementation puts anywhere but its stream shows up as
// wall time to a device-wide sync beyond the stream's event time. True when the median excess
// (ms) is more than a fraction of the median event time plus a floor (config/timing.toml
// [stream_rule]). A first window over the line is timed again once (another process's CUDA context
// start-up or a loaded CPU can also open the gap); the second window's timing and excess are the
// ones reported and judged.
bool outside_stream(double median_excess_ms, double median_ms);

// One timed window: its measurement and the median wall-minus-events excess of its calls (ms).
struct Window {
  Measurement m;
  double excess_ms = 0;
};
struct StreamRuleTiming {
  Window reported;               // the window whose numbers count
  std::optional<Window> first;   // set when the first window was over the line and timed again
};
// Runs `window()` once; when that window is over the stream rule (and did not fail), pauses for
// `pause` and runs it once more, and reports the second.
StreamRuleTiming time_with_stream_rule(const std::function<Window()>& window, std::chrono::milliseconds pause);

// Times a CPU function with the steady clock under the same rule (seconds per call): the
// sequential C baseline of speedups.
Measurement measure_cpu(const std::function<void()>& fn, const StoppingRule& rule);

}  // namespace cudaperf::timing

// The timing protocol's constants, from config/timing.toml (compiled in; what each means is there),
// and the two per-sample rules made of them. The PyTorch worker reads the same file
// (python/cudaperf/torch_timing.py).
#pragma once
#include <cstddef>

namespace cudaperf::timing {

struct TimingRules {
  // [stopping_rule]: StoppingRule's defaults, and the budget's and the attempts' bounds
  int min_samples = 0, max_samples = 0;
  double target_rel_stdev = 0, budget_s = 0;
  int budget_floor = 0, attempts_factor = 0;
  // [stream_rule]
  double stream_excess_fraction = 0, stream_excess_floor_ms = 0;
  // [clock]
  double throttle_fraction = 0;
  // [l2_flush]
  int l2_flush_multiple = 0;
  size_t l2_flush_min_bytes = 0;
  long long l2_flush_unknown_l2_bytes = 0;  // the L2 size assumed when the device reports none
};
const TimingRules& rules();

// [clock]: a sample at `mhz` is throttled when it is under throttle_fraction of `max_mhz`; never
// when either is unknown (<= 0).
bool clock_throttled(double mhz, double max_mhz);
// [l2_flush]: the bytes to write before a timed call on a GPU with `l2_bytes` of L2 (<= 0: unknown,
// unknown_l2_bytes assumed).
size_t l2_flush_bytes(long long l2_bytes);

}  // namespace cudaperf::timing

"""The timing protocol's statistics and stopping rule (DESIGN §4), the same as src/timing/stats.cpp,
for the PyTorch worker. Standard library only (tested without torch)."""
from __future__ import annotations

import math
import time


def quantile(sorted_samples, q):
    if not sorted_samples:
        return 0.0
    pos = q * (len(sorted_samples) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(sorted_samples) - 1)
    return sorted_samples[lo] + (sorted_samples[hi] - sorted_samples[lo]) * (pos - lo)


def summarize(samples):
    s = sorted(samples)
    out = {"samples": len(s), "median_ms": 0.0, "min_ms": 0.0, "max_ms": 0.0, "mean_ms": 0.0, "q1_ms": 0.0,
           "q3_ms": 0.0, "rel_stdev": 0.0}
    if not s:
        return out
    mean = sum(s) / len(s)
    out.update(min_ms=s[0], max_ms=s[-1], median_ms=quantile(s, 0.5), q1_ms=quantile(s, 0.25),
               q3_ms=quantile(s, 0.75), mean_ms=mean)
    if len(s) > 1 and mean != 0:
        out["rel_stdev"] = math.sqrt(sum((x - mean) ** 2 for x in s) / (len(s) - 1)) / abs(mean)
    return out


def outside_stream(median_excess_ms, median_ms):
    """The stream rule, as timing::outside_stream: the median wall-minus-events excess (ms) is more
    than 10 % of the median event time plus 50 us. A first window over the line is timed again once."""
    return median_ms > 0 and median_excess_ms > 0.1 * median_ms + 0.05


def time_with_stream_rule(window, pause_s=0.3, sleep=time.sleep):
    """window() -> (stats, median_excess_ms), one timed window. Runs it once; when it is over the
    stream rule (and did not fail), pauses and runs it once more. Returns (stats, excess, first): the
    window whose numbers count, and the first window's {median_ms, wall_excess_ms} when it was redone."""
    stats, excess = window()
    if stats.get("stop_reason") == "failed" or not outside_stream(excess, stats["median_ms"]):
        return stats, excess, None
    first = {"median_ms": stats["median_ms"], "wall_excess_ms": excess}
    sleep(pause_s)
    stats, excess = window()
    return stats, excess, first


def measure(sample, min_samples=10, max_samples=1000, target_rel_stdev=0.005, budget_s=2.0, clock=time.monotonic):
    """Calls sample() -> ms, or (ms, throttled) (negative ms: failure; a throttled sample is discarded
    and counted), until the rule says stop, like timing::measure:
    at least `min_samples`, stop when the relative stdev is under the target, at `max_samples`, or
    when the budget is spent (with at least min(min_samples, 3) samples)."""
    kept = []
    discarded = 0
    t0 = clock()
    reason = "max_samples"  # also when throttled samples use up every attempt
    for _ in range(max_samples * 2):
        v = sample()
        throttled = False
        if isinstance(v, tuple):  # (ms, throttled): a sample taken while the SM clock was throttled
            v, throttled = v
        if v is None or v < 0:
            out = summarize(kept)
            out["stop_reason"] = "failed"
            out["discarded"] = discarded
            return out
        if throttled:
            discarded += 1
        else:
            kept.append(float(v))
        n = len(kept)
        if n >= min_samples:
            if summarize(kept)["rel_stdev"] < target_rel_stdev:
                reason = "converged"
                break
            if n >= max_samples:
                reason = "max_samples"
                break
        if clock() - t0 >= budget_s and n >= min(min_samples, 3):
            reason = "time_budget"
            break
    out = summarize(kept)
    out["stop_reason"] = reason
    out["discarded"] = discarded
    return out

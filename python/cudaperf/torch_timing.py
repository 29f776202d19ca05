"""The timing protocol's statistics and stopping rule (DESIGN §4), the same as src/timing/stats.cpp,
for the PyTorch worker; the constants are config/timing.toml's (what each means is there), read when
this module is imported. Standard library only (tested without torch)."""
from __future__ import annotations

import math
import time

from cudaperf import rule_files

_FILE = "timing.toml"
_RULES = rule_files.load(_FILE)


def _rule(path, kind=(int, float)):
    return rule_files.value(_RULES, path, kind, _FILE)


# [stopping_rule]: measure()'s defaults, the budget's floor and the attempts' bound
MIN_SAMPLES = _rule("stopping_rule.min_samples", int)
MAX_SAMPLES = _rule("stopping_rule.max_samples", int)
TARGET_REL_STDEV = float(_rule("stopping_rule.target_rel_stdev"))
BUDGET_S = float(_rule("stopping_rule.budget_s"))
BUDGET_FLOOR = _rule("stopping_rule.budget_floor", int)
ATTEMPTS_FACTOR = _rule("stopping_rule.attempts_factor", int)
STREAM_EXCESS_FRACTION = float(_rule("stream_rule.excess_fraction"))  # [stream_rule]
STREAM_EXCESS_FLOOR_MS = float(_rule("stream_rule.excess_floor_ms"))
THROTTLE_FRACTION = float(_rule("clock.throttle_fraction"))  # [clock]
L2_FLUSH_MULTIPLE = _rule("l2_flush.l2_multiple", int)  # [l2_flush]
L2_FLUSH_MIN_BYTES = _rule("l2_flush.min_bytes", int)
L2_FLUSH_UNKNOWN_L2_BYTES = _rule("l2_flush.unknown_l2_bytes", int)


def stopping_rule(plan_timing):
    """measure()'s stopping-rule arguments from a plan's "timing" table: each key it lacks takes
    [stopping_rule]'s default (the C++ side sends all four)."""
    defaults = {"min_samples": MIN_SAMPLES, "max_samples": MAX_SAMPLES, "target_rel_stdev": TARGET_REL_STDEV,
                "budget_s": BUDGET_S}
    return {k: plan_timing.get(k, d) for k, d in defaults.items()}


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
    than a fraction of the median event time plus a floor ([stream_rule]). A first window over the line
    is timed again once."""
    return median_ms > 0 and median_excess_ms > STREAM_EXCESS_FRACTION * median_ms + STREAM_EXCESS_FLOOR_MS


def clock_throttled(mhz, max_mhz):
    """[clock], as timing::clock_throttled: a sample at `mhz` is throttled when it is under the fraction
    of `max_mhz`; never when either is unknown (<= 0)."""
    return mhz > 0 and max_mhz > 0 and mhz < THROTTLE_FRACTION * max_mhz


def l2_flush_bytes(l2_bytes):
    """[l2_flush], as timing::l2_flush_bytes: the bytes to write before a timed call on a GPU with
    `l2_bytes` of L2 (<= 0 or None: unknown, L2_FLUSH_UNKNOWN_L2_BYTES assumed)."""
    l2 = int(l2_bytes or 0)
    if l2 <= 0:
        l2 = max(L2_FLUSH_UNKNOWN_L2_BYTES, 0)
    return max(l2 * L2_FLUSH_MULTIPLE, L2_FLUSH_MIN_BYTES)


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


def measure(sample, min_samples=MIN_SAMPLES, max_samples=MAX_SAMPLES, target_rel_stdev=TARGET_REL_STDEV,
            budget_s=BUDGET_S, clock=time.monotonic):
    """Calls sample() -> ms, or (ms, throttled) (negative ms: failure; a throttled sample is discarded
    and counted), until the rule says stop, like timing::measure:
    at least `min_samples`, stop when the relative stdev is under the target, at `max_samples`, or
    when the budget is spent (with at least min(min_samples, BUDGET_FLOOR) samples)."""
    kept = []
    discarded = 0
    t0 = clock()
    reason = "max_samples"  # also when throttled samples use up every attempt
    for _ in range(max_samples * ATTEMPTS_FACTOR):
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
        if clock() - t0 >= budget_s and n >= min(min_samples, BUDGET_FLOOR):
            reason = "time_budget"
            break
    out = summarize(kept)
    out["stop_reason"] = reason
    out["discarded"] = discarded
    return out

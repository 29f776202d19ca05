#!/usr/bin/env python3
"""Event medians of the harness vs Nsight Compute's gpu__time_duration.sum for the same kernels.

Usage: bench/timing_truth.py EVENTS.jsonl NCU.csv NCU_RUN.jsonl [--out truth.json]

EVENTS.jsonl: records of a plain `tasks check-gpu` run (CUDA event medians).
NCU.csv:      `ncu --csv --print-units base --metrics gpu__time_duration.sum --target-processes all`
              output of a second `tasks check-gpu` run over the same tasks (NCU_RUN.jsonl its records).
Each implementation runs in its own worker process, in the order its records appear, so ncu's
process ids map to implementations by order of first launch. In the perf config every timed call
is followed by the harness's own count_kernel launch(es) (the output check); the implementation's
launches between two such checks are one timed call, and their durations summed are that call's
kernel time. Warm-up calls (not followed by a check) and small-config calls are left out.
"""
import argparse
import json
import statistics
import sys
from collections import OrderedDict

import ncu_csv

UNIT = {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3, "msecond": 1.0, "ms": 1.0, "second": 1e3, "s": 1e3}


def read_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def impl_order(records):
    """[(task, impl)] in the order workers ran (first appearance in the records)."""
    seen = OrderedDict()
    for r in records:
        seen.setdefault((r["task"], r["impl"]), None)
    return list(seen)


def read_ncu(path):
    table = ncu_csv.rows(open(path, errors="replace").read())
    if table is None:
        raise SystemExit(f"timing_truth: no ncu CSV table in {path}")
    launches = OrderedDict()  # pid -> [(kernel name, ms)]
    for row in table:
        v = ncu_csv.value(row)
        if row.get("Metric Name") != "gpu__time_duration.sum" or v is None:
            continue
        launches.setdefault(row["Process ID"], []).append((row["Kernel Name"], v * UNIT.get(row.get("Metric Unit", "nsecond"), 1e-6)))
    return launches


def is_check(name):
    return "count_kernel" in name and "cudaperf" in name


def timed_calls(launches):
    """Kernel time of each timed call: the launches between two output checks."""
    calls, current, seen_check = [], [], False
    for name, ms in launches:
        if is_check(name):
            if current and seen_check:
                calls.append(sum(current))
            current, seen_check = [], True
        else:
            current.append(ms)
    # the first check closes the last warm-up-preceded segment (warm-ups + first timed call): dropped above
    return calls


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("events")
    ap.add_argument("ncu_csv")
    ap.add_argument("ncu_records")
    ap.add_argument("--out")
    a = ap.parse_args()
    events = {(r["task"], r["impl"]): r for r in read_records(a.events) if r.get("perf") and r.get("status") == "ok"}
    order = impl_order(read_records(a.ncu_records))
    launches = read_ncu(a.ncu_csv)
    pids = list(launches)
    # Workers with no kernel launches at all (failed loads) would shift the mapping: require equal counts.
    if len(pids) != len(order):
        print(f"timing_truth: {len(pids)} profiled processes but {len(order)} implementations in the records",
              file=sys.stderr)
    rows = []
    for (task, impl), pid in zip(order, pids):
        calls = timed_calls(launches[pid])
        ev = events.get((task, impl))
        if not calls or not ev:
            continue
        ncu_ms = statistics.median(calls)
        kernels = sorted({n.split("(")[0] for n, _ in launches[pid] if not is_check(n)})
        rows.append({"task": task, "impl": impl, "event_median_ms": ev["median_ms"], "ncu_median_ms": ncu_ms,
                     "ncu_calls": len(calls), "kernels": len(kernels),
                     "ratio": ev["median_ms"] / ncu_ms, "rel_diff": (ev["median_ms"] - ncu_ms) / ncu_ms})
    print(f"{'task':<32} {'impl':<24} {'events ms':>10} {'ncu ms':>10} {'diff':>8} kernels")
    for r in rows:
        print(f"{r['task']:<32} {r['impl']:<24} {r['event_median_ms']:>10.4f} {r['ncu_median_ms']:>10.4f} "
              f"{100 * r['rel_diff']:>7.2f}% {r['kernels']}")
    big = [r for r in rows if r["ncu_median_ms"] > 0.05]
    summary = {"impls": len(rows), "above_50us": len(big),
               "median_abs_diff": statistics.median([abs(r["rel_diff"]) for r in big]) if big else None,
               "max_abs_diff": max([abs(r["rel_diff"]) for r in big]) if big else None,
               "within_5pct": sum(abs(r["rel_diff"]) <= 0.05 for r in big)}
    if big:
        print(f"over {len(big)} implementations above 50 us: median |diff| {100 * summary['median_abs_diff']:.2f} %, "
              f"max {100 * summary['max_abs_diff']:.2f} %, {summary['within_5pct']} within 5 %")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"summary": summary, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Event medians of the harness vs Nsight Compute's gpu__time_duration.sum for the same kernels.

Usage: bench/timing_truth.py EVENTS.jsonl NCU.csv NCU_RUN.jsonl [--out truth.json]

EVENTS.jsonl: records of a plain `tasks check-gpu` run (CUDA event medians).
NCU.csv:      `ncu --csv --print-units base --metrics gpu__time_duration.sum --target-processes all`
              output of a second `tasks check-gpu` run over the same tasks (NCU_RUN.jsonl its records),
              with CUDAPERF_SPIN_TIMEOUT_MS=0 (ncu serialises launches; docs/threat-model.md).
The measurer (one process per task, recognised by its own cudaperf kernels) is left out. Every
implementation runs in its own launcher process, in the order its records appear, so the other
process ids map to implementations by order of first launch. A launcher runs only the
implementation: two calls per small config, two warm-ups, then the timed calls (`timed_calls` of
its perf record); its launches split evenly into those calls, and the last ones are the timed calls.
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


def is_harness(name):
    return "cudaperf" in name and any(k in name for k in ("spin_kernel", "draw_kernel", "count_kernel", "bytes_not_kernel"))


def timed_calls(launches, small_configs, timed):
    """Kernel time of each timed call: the launcher's launches split evenly into its calls."""
    calls_total = 2 * small_configs + 2 + timed
    if timed <= 0 or not launches or len(launches) % calls_total:
        return []
    k = len(launches) // calls_total
    perf = [ms for _, ms in launches[-k * timed:]]
    return [sum(perf[i:i + k]) for i in range(0, len(perf), k)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("events")
    ap.add_argument("ncu_csv")
    ap.add_argument("ncu_records")
    ap.add_argument("--out")
    a = ap.parse_args()
    events = {(r["task"], r["impl"]): r for r in read_records(a.events) if r.get("perf") and r.get("status") == "ok"}
    ncu_records = read_records(a.ncu_records)
    order = impl_order(ncu_records)
    small = {}  # task -> small configs
    for r in ncu_records:
        if not r.get("perf"):
            small.setdefault(r["task"], set()).add(r["config"])
    timed = {(r["task"], r["impl"]): r.get("timed_calls", 0) for r in ncu_records if r.get("perf")}
    launches = read_ncu(a.ncu_csv)
    pids = [p for p, l in launches.items() if not any(is_harness(n) for n, _ in l)]
    if len(pids) != len(order):
        print(f"timing_truth: {len(pids)} profiled launcher processes but {len(order)} implementations in the records",
              file=sys.stderr)
    rows = []
    for (task, impl), pid in zip(order, pids):
        calls = timed_calls(launches[pid], len(small.get(task, ())), timed.get((task, impl), 0))
        ev = events.get((task, impl))
        if not calls or not ev:
            continue
        ncu_ms = statistics.median(calls)
        kernels = sorted({n.split("(")[0] for n, _ in launches[pid]})
        rows.append({"task": task, "impl": impl, "event_median_ms": ev["median_ms"], "ncu_median_ms": ncu_ms,
                     "window_median_ms": ev.get("window_median_ms"), "handshake_ms": ev.get("handshake_ms"),
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

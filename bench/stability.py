#!/usr/bin/env python3
"""Timing stability across separate runs of `cudaperf tasks check-gpu` (the same implementations).

Usage: bench/stability.py RUN1.jsonl RUN2.jsonl [RUN3.jsonl ...] [--out stability.json] [--min-ms 0.05]

Each file holds the records of one run. For every (task, impl, perf config) measured ok in every
run, the spread is (max - min) / median of the per-run medians. The summary gives the median and
the worst spread over kernels whose median is above --min-ms (the issue's bar: <= 2 %).
"""
import argparse
import json
import statistics
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--min-ms", type=float, default=0.05)
    a = ap.parse_args()
    if len(a.runs) < 2:
        print("stability: need at least two runs", file=sys.stderr)
        return 2
    per_run = []
    for path in a.runs:
        d = {}
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("perf") and r.get("status") == "ok" and r.get("median_ms", -1) > 0:
                    d[(r["task"], r["impl"], r["config"])] = r["median_ms"]
        per_run.append(d)
    keys = sorted(set.intersection(*(set(d) for d in per_run)))
    rows = []
    for k in keys:
        ms = [d[k] for d in per_run]
        med = statistics.median(ms)
        rows.append({"task": k[0], "impl": k[1], "config": k[2], "medians_ms": ms,
                     "spread": (max(ms) - min(ms)) / med})
    big = [r for r in rows if statistics.median(r["medians_ms"]) > a.min_ms]
    summary = {
        "runs": len(a.runs), "kernels": len(rows), "kernels_above_min_ms": len(big), "min_ms": a.min_ms,
        "median_spread": statistics.median([r["spread"] for r in big]) if big else None,
        "max_spread": max([r["spread"] for r in big]) if big else None,
        "within_2pct": sum(r["spread"] <= 0.02 for r in big),
    }
    print(f"{'task':<32} {'impl':<24} {'run medians (ms)':<36} spread")
    for r in rows:
        print(f"{r['task']:<32} {r['impl']:<24} {' '.join(f'{x:.4f}' for x in r['medians_ms']):<36} {100 * r['spread']:.2f} %")
    if big:
        print(f"over {len(big)} kernels above {a.min_ms} ms: median spread {100 * summary['median_spread']:.2f} %, "
              f"max {100 * summary['max_spread']:.2f} %, {summary['within_2pct']} within 2 %")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"summary": summary, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

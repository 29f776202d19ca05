#!/usr/bin/env python3
"""How well each static feature of `cudaperf analyze` alone orders the implementations of one task
by measured time: the baseline the ranker (issue 5) must beat.

For every task with perf records, every implementation is analysed (static, no GPU); its score per
feature is the mean over its kernels (null scores skipped). For every pair of implementations of
one task whose measured perf intervals [q1, q3] do not overlap, a feature is right when the faster
one has the higher score; equal scores count one half. Pairs are pooled over the task's perf
configs (one vote per config).

  python3 bench/feature_order.py data/records/2026-11-30-h200.jsonl --out bench/results/X.json
"""
import argparse, itertools, json, pathlib, statistics, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("records")
ap.add_argument("--bin", default="build/dev/cudaperf")
ap.add_argument("--root", default="data/tasks")
ap.add_argument("--out", required=True)
a = ap.parse_args()

recs = [json.loads(l) for l in open(a.records)]
perf = [r for r in recs if r["perf"] and r["status"] == "ok" and r["median_ms"] > 0]
tasks = sorted({r["task"] for r in perf})
features = ["coalescing", "occupancy", "intensity", "sync"]
scores, wall = {}, []
for n, t in enumerate(tasks):
    impls = sorted({r["impl"] for r in perf if r["task"] == t})
    for im in impls:
        f = pathlib.Path(a.root) / "c2cuda" / t / "impls" / f"{im}.cu"
        t0 = time.time()
        p = subprocess.run([a.bin, "analyze", str(f), "--task", t, "--root", a.root, "--json"], capture_output=True, text=True)
        wall.append(time.time() - t0)
        if p.returncode != 0:
            print(f"analyze failed on {f}: {p.stderr[:200]}", file=sys.stderr)
            continue
        j = json.loads(p.stdout)
        s = {}
        for feat in features:
            v = [k["scores"][feat] for k in j["kernels"] if k["scores"].get(feat) is not None]
            s[feat] = statistics.mean(v) if v else None
        scores[(t, im)] = s
    print(f"[{n + 1}/{len(tasks)}] {t}", file=sys.stderr)

right = {f: 0.0 for f in features}
counted = {f: 0 for f in features}
pairs = 0
for t in tasks:
    for cfg in sorted({r["config"] for r in perf if r["task"] == t}):
        rs = [r for r in perf if r["task"] == t and r["config"] == cfg and (t, r["impl"]) in scores]
        for x, y in itertools.combinations(rs, 2):
            if not (x["q3_ms"] < y["q1_ms"] or y["q3_ms"] < x["q1_ms"]):
                continue  # not separated beyond noise
            fast, slow = (x, y) if x["median_ms"] < y["median_ms"] else (y, x)
            pairs += 1
            for f in features:
                sf, ss = scores[(t, fast["impl"])][f], scores[(t, slow["impl"])][f]
                if sf is None or ss is None:
                    continue
                counted[f] += 1
                right[f] += 1.0 if sf > ss else 0.5 if sf == ss else 0.0

out = {
    "records": a.records, "tasks": len(tasks), "implementations": len(scores), "separated_pairs": pairs,
    "analyze_wall_s_median": statistics.median(wall) if wall else None,
    "features": {f: {"pairs_scored": counted[f], "pairwise_accuracy": (right[f] / counted[f]) if counted[f] else None}
                 for f in features},
}
pathlib.Path(a.out).write_text(json.dumps(out, indent=2) + "\n")
print(json.dumps(out, indent=2))

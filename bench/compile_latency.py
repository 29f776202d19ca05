#!/usr/bin/env python3
"""Candidate build latency, cold and warm compile cache.

For a sample of dataset implementations (every Nth file, or all), runs
`cudaperf eval --no-gpu` twice: first with an empty compile cache (cold: nvcc with -Xptxas -v,
link allowlist, confined host probe), then again (warm: cache hit). Writes JSON with every time
and the summary (median, p90, max) to stdout or --out.

  python3 bench/compile_latency.py --bin build/release/cudaperf --every 4 --out bench/results/X.json
"""
import argparse, json, os, pathlib, platform, statistics, subprocess, sys, tempfile, time, datetime

def quantile(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo = int(k); hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/release/cudaperf")
    ap.add_argument("--root", default="data/tasks")
    ap.add_argument("--every", type=int, default=1, help="take every Nth implementation")
    ap.add_argument("--out")
    a = ap.parse_args()
    files = sorted(pathlib.Path(a.root, "c2cuda").glob("*/*/impls/*.cu"))[:: a.every]
    cache = tempfile.mkdtemp(prefix="cudaperf-bench-cache-")
    env = dict(os.environ, CUDAPERF_CACHE_DIR=cache)
    rows = []
    for i, f in enumerate(files):
        task = "/".join(f.parts[-4:-2])
        times = {}
        for phase in ("cold", "warm"):
            t0 = time.perf_counter()
            p = subprocess.run([a.bin, "eval", "--root", a.root, "--task", task, "--candidate", str(f), "--no-gpu"],
                               env=env, capture_output=True, text=True)
            times[phase] = time.perf_counter() - t0
            if p.returncode != 3:
                print(f"unexpected exit {p.returncode} for {f}: {p.stdout[-300:]}", file=sys.stderr)
        rows.append({"file": str(f), "cold_s": times["cold"], "warm_s": times["warm"]})
        print(f"[{i + 1}/{len(files)}] {f}: cold {times['cold']:.2f} s, warm {times['warm']:.3f} s", file=sys.stderr)
    def summary(key):
        xs = [r[key] for r in rows]
        return {"median": statistics.median(xs), "p90": quantile(xs, 0.9), "max": max(xs), "n": len(xs)}
    out = {"date": datetime.datetime.utcnow().strftime("%Y-%m-%d"), "machine": f"{platform.node()} ({os.cpu_count()} cores)",
           "nvcc": subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1],
           "what": "cudaperf eval --no-gpu per candidate: nvcc -O3 -Xptxas -v shared object, nm/readelf link checks, confined host probe",
           "cold": summary("cold_s"), "warm": summary("warm_s"), "rows": rows}
    text = json.dumps(out, indent=1)
    if a.out:
        pathlib.Path(a.out).write_text(text + "\n")
    print(json.dumps({k: out[k] for k in ("date", "machine", "nvcc", "cold", "warm")}, indent=1))

if __name__ == "__main__":
    main()

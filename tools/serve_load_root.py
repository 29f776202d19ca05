#!/usr/bin/env python3
"""The task set of the service load test (bench/serve_load.py): the ten tasks whose perf
configurations move the fewest bytes (so 1000 candidates fit in two 10-minute device calls; the
engine's cost per candidate grows with the perf buffers, see bench/results/*check-gpu*), plus
elementwise/saxpy with a 2^25-element perf size for the red-team candidates.
Usage: serve_load_root.py DATASET_ROOT OUT_ROOT"""
import glob, os, shutil, sys, tomllib

src, dst = sys.argv[1:3]
rows = []
for f in glob.glob(os.path.join(src, "c2cuda", "*", "*", "task.toml")):
    t = tomllib.load(open(f, "rb"))
    perf = next(c for c in t["configs"] if c["name"].startswith("perf"))
    env = {k: v for k, v in perf.items() if k != "name"}
    rows.append((eval(t["cost"]["bytes"], {"__builtins__": {}}, env), t["id"], os.path.dirname(f)))
rows.sort()
shutil.rmtree(dst, ignore_errors=True)
for _, tid, d in rows[:10]:
    shutil.copytree(d, os.path.join(dst, "c2cuda", tid))
sax = os.path.join(dst, "c2cuda", "elementwise", "saxpy")
shutil.copytree(os.path.join(src, "c2cuda", "elementwise", "saxpy"), sax)
toml = open(os.path.join(sax, "task.toml")).read()
small = toml.replace('{ name = "perf", n = 400000000 }', '{ name = "perf", n = 33554432 }')
if small == toml:
    sys.exit("serve_load_root: cannot shrink saxpy's perf size")
open(os.path.join(sax, "task.toml"), "w").write(small)
print("serve-load root:", ", ".join(t for _, t, _ in rows[:10]), "+ elementwise/saxpy (n = 2^25)")

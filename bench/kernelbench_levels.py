#!/usr/bin/env python3
"""Every KernelBench reference of levels 1-3 actually run (issue 20, item 3), for the H200.

Per problem file, in its own subprocess (an OOM or a hang is that problem's row, never the run's):
the reference Model built on the GPU at the file's own (perf) sizes, one input set drawn, one forward,
then eager timing (median of 10 calls after 2 warm-ups, CUDA events) in both evaluation modes
(strict: eval() and TF32 off; kernelbench: training mode and PyTorch's TF32 defaults), with the peak
host memory (VmHWM, reset per problem) and peak device memory (torch.cuda.max_memory_allocated) and the
bytes of one input set and of the outputs. Then the null battery at the small configs: the problems
imported with `cudaperf import-kernelbench` (tiny configs derived and run on the CPU) and
`cudaperf tasks validate --json` on the CPU side by side (CUDA_VISIBLE_DEVICES=""), strict mode.

    python3 bench/kernelbench_levels.py --kb build/kb-problems --bin build/gpu-bundle/cudaperf --out $OUT/kb
      [--levels 1,2,3] [--deadline-s 560] [--skip-battery] [--skip-run]

Writes OUT/run.jsonl (one line per problem, appended; a second call skips problems already there),
OUT/validate.json, OUT/summary.json. Needs torch (python3 here is the interpreter with torch).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r'''
import json, os, sys, time
sys.path.insert(0, os.path.join(sys.argv[3], "python"))
import torch
from cudaperf import torch_network, torch_outputs, torch_problem
path, mode = sys.argv[1], sys.argv[2]
res = {"file": path, "mode": mode}
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
try:
    open("/proc/self/clear_refs", "w").write("5")  # the peak RSS counts from here
except OSError:
    pass
t0 = time.monotonic()
try:
    torch_network.refuse_network()
    mod = torch_problem.load_module(path, "kb_ref")
    if mode == "strict":
        torch_problem.fp32_strict(torch)
    torch.manual_seed(0)
    model = mod.Model(*list(mod.get_init_inputs())).cuda()
    model.train(mode == "kernelbench")
    torch.manual_seed(1)
    with torch.device("cuda"):
        xs = list(mod.get_inputs())
    xs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in xs]
    res["input_bytes"] = sum(x.numel() * x.element_size() for x in xs if isinstance(x, torch.Tensor))
    torch.set_grad_enabled(False)
    out = torch_outputs.flatten_outputs(model(*xs))
    torch.cuda.synchronize()
    res["output_bytes"] = sum(o.numel() * o.element_size() for o in out)
    res["finite"] = all(not o.is_floating_point() or bool(torch.isfinite(o).all()) for o in out)
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ms = []
    for i in range(12):
        a.record(); model(*xs); b.record(); b.synchronize()
        if i >= 2:
            ms.append(a.elapsed_time(b))
    ms.sort()
    res.update(ran=True, eager_ms=ms[len(ms) // 2])
except torch.cuda.OutOfMemoryError as ex:
    res.update(ran=False, error="out of device memory: " + str(ex).splitlines()[0][:200])
except ModuleNotFoundError as ex:
    res.update(ran=False, error=f"missing module '{ex.name}'")
except Exception as ex:
    res.update(ran=False, error=("needs network access; " if torch_network.NETWORK_TRIES else "") + f"{type(ex).__name__}: {str(ex)[:300]}")
res["seconds"] = time.monotonic() - t0
res["peak_host_bytes"] = hwm()
try:
    res["peak_device_bytes"] = torch.cuda.max_memory_allocated()
except Exception:
    pass
print("RESULT " + json.dumps(res), flush=True)
os._exit(0)
'''


def problems(kb, levels):
    out = []
    for lv in levels:
        out += sorted(glob.glob(os.path.join(kb, f"level{lv}", "*.py")))
    return [p for p in out if not os.path.basename(p).startswith("__")]


def run_one(path, mode, timeout_s):
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, path, mode, ROOT], capture_output=True, text=True, timeout=timeout_s)
        for line in p.stdout.splitlines():
            if line.startswith("RESULT "):
                return json.loads(line[7:])
        return {"file": path, "mode": mode, "ran": False,
                "error": f"the child ended without a result (exit {p.returncode}; killed for memory?): {p.stderr[-300:]}"}
    except subprocess.TimeoutExpired:
        return {"file": path, "mode": mode, "ran": False, "error": f"did not finish within {timeout_s} s"}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kb", required=True, help="a folder with KernelBench's level1/ level2/ level3/ problem files")
    ap.add_argument("--bin", required=True, help="the cudaperf binary (import-kernelbench, tasks validate)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--levels", default="1,2,3")
    ap.add_argument("--deadline-s", type=float, default=560, help="start nothing after this many seconds")
    ap.add_argument("--timeout-s", type=float, default=120, help="one problem in one mode")
    ap.add_argument("--skip-battery", action="store_true")
    ap.add_argument("--skip-run", action="store_true")
    ap.add_argument("--parallel", type=int, default=1,
                    help="problems side by side (memory peaks are per process; eager times are then indicative only)")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    os.makedirs(a.out, exist_ok=True)
    files = problems(a.kb, a.levels.split(","))
    summary = {"problems": len(files)}
    if not a.skip_battery:
        # import + validate on the CPU (16 cores side by side), strict mode: tiny configs, battery
        ds = os.path.join(a.out, "dataset")
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", CUDAPERF_PYTHON=os.environ.get("CUDAPERF_PYTHON", sys.executable))
        for lv in a.levels.split(","):
            subprocess.run([a.bin, "import-kernelbench", os.path.join(a.kb, f"level{lv}"), "--out", ds,
                            "--category", f"kb_level{lv}", "--force"], env=env, stdout=open(os.path.join(a.out, "import.log"), "a"),
                           stderr=subprocess.STDOUT, timeout=max(60, a.deadline_s - (time.monotonic() - t0)))
        v = subprocess.run([a.bin, "tasks", "validate", ds, "--json", os.path.join(a.out, "validate.json"),
                            "--reference-timeout", "120"], env=env, capture_output=True, text=True,
                           timeout=max(60, a.deadline_s - (time.monotonic() - t0)))
        open(os.path.join(a.out, "validate.txt"), "w").write(v.stdout[-200000:] + v.stderr[-20000:])
        summary["battery_s"] = time.monotonic() - t0
    if not a.skip_run:
        path = os.path.join(a.out, "run.jsonl")
        done = set()
        if os.path.exists(path):
            done = {(r["file"], r["mode"]) for r in map(json.loads, open(path)) if "file" in r}
        import threading
        from concurrent.futures import ThreadPoolExecutor
        lock = threading.Lock()
        todo = [(p, mode) for p in files for mode in ("strict", "kernelbench") if (p, mode) not in done]
        with open(path, "a") as f:
            def one(job):
                if time.monotonic() - t0 > a.deadline_s:
                    summary["stopped_at_deadline"] = True
                    return
                r = run_one(job[0], job[1], a.timeout_s)
                r["file"] = job[0]
                with lock:
                    f.write(json.dumps(r) + "\n")
                    f.flush()
            with ThreadPoolExecutor(max_workers=max(1, a.parallel)) as ex:
                list(ex.map(one, todo))
        rows = [json.loads(x) for x in open(path)]
        summary.update(rows=len(rows), ran=sum(bool(r.get("ran")) for r in rows),
                       failed=[{"file": os.path.relpath(r["file"], a.kb), "mode": r["mode"], "error": r.get("error")}
                               for r in rows if not r.get("ran")][:400],
                       max_peak_device_bytes=max((r.get("peak_device_bytes", 0) for r in rows), default=0),
                       max_peak_host_bytes=max((r.get("peak_host_bytes", 0) for r in rows), default=0))
    summary["seconds"] = time.monotonic() - t0
    json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "failed"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

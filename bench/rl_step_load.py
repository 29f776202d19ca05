#!/usr/bin/env python3
"""Reward throughput at RL load: GRPO steps (P prompts x G samples, C-to-CUDA and PyTorch-to-CUDA
tasks; bench/rl_step_workload.py makes the candidates) submitted at once to `cudaperf serve`, step
after step on the same tasks with new sources. Step 1 is cold (fresh service, store and compile
cache), later steps warm. Reports candidates/min cold and warm per kind, the step latency (submission
to the last reward), verdicts per class, where the time goes (the results' GPU-run stages and the
store's queue and busy times) and the physical floor (compile time on the available cores plus the GPU
time of the timed samples) as a ratio. bench/README-rl-step-load.md has the report's fields.

  python3 bench/rl_step_load.py --dry-run                                 # the plan only, no service
  python3 bench/rl_step_load.py --bin build/ci/cudaperf --json /tmp/rl.json --cpu-test-mode --kinds c2cuda \\
      --prompts 2 --samples 3 --steps 1                                    # here, no GPU (CPU stages only)
  python3 bench/rl_step_load.py --bin build/ci/cudaperf --json $OUT/rl-step-load.json --deadline-s 540 \\
      --kernelbench-sample 2                                               # on the H200

torch2cuda tasks the service does not know (asked before the first step without storing a job) are,
with --torch-route auto, evaluated by `cudaperf eval` and reported with route "eval": their
extensions built by `tasks check-gpu --build-only` on all cores while the service scores its share of
the step, then one `cudaperf eval` per task with all of its candidates, one task after another.
"""
from __future__ import annotations

import argparse
import datetime
import inspect
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import shutil
import tempfile
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(BENCH), str(REPO), str(REPO / "python")]
import rl_step_workload as workload  # noqa: E402
from mutation_suite import run_eval, torch_tree  # noqa: E402
from serve_load import add_run_stages, pct  # noqa: E402

# The engine's build line for a C-to-CUDA candidate (src/compile/compile.cpp), for the compile-time floor.
ENGINE_NVCC_FLAGS = ["-arch=sm_90", "-std=c++17", "-O3", "-lineinfo", "-Xcompiler", "-fPIC", "-Xcompiler",
                     "-U_FORTIFY_SOURCE,-D_FORTIFY_SOURCE=0", "-shared", "-cudart", "shared", "-Xlinker", "-z,relro,-z,now"]
# Bars of the throughput issue (one H200, 16 cores): candidates/min per kind cold and warm, and the step latency.
BARS = {"c2cuda": {"cold": 60, "warm": 120}, "torch2cuda": {"cold": 10, "warm": 20}, "step_latency_s": 480}
PROBE_SOURCE_BYTES = 1 << 20  # over the service's source limit (256 KiB, docs/serve.md)
KB_SECONDS_PER_CANDIDATE = 90  # the KernelBench loop's cold candidate on the H200 (about a minute, issue text)
PROBE_RESERVE_S = 30
MARGIN_S = 15  # kept free before --deadline-s for stopping the service and writing the report


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="the cudaperf binary (default: $CUDAPERF_BIN, build/release, build/ci)")
    ap.add_argument("--tasks-root", default=str(REPO / "data" / "tasks"), help="dataset folder (default data/tasks)")
    ap.add_argument("--prompts", type=int, default=16, help="tasks per step, P (default 16)")
    ap.add_argument("--samples", type=int, default=8, help="candidates per task per step, G (default 8)")
    ap.add_argument("--steps", type=int, default=2, help="steps on the same tasks; the first is cold (default 2)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the workload (tasks, classes, edits)")
    ap.add_argument("--kinds", default="c2cuda,torch2cuda", help="task kinds (default both)")
    ap.add_argument("--torch-share", type=float, default=0.5, help="share of the prompts that are torch2cuda tasks")
    ap.add_argument("--shares", default=",".join(f"{c}={v}" for c, v in workload.DEFAULT_SHARES.items()),
                    help="class shares of a step's samples (default %(default)s)")
    ap.add_argument("--json", help="write the report here")
    ap.add_argument("--workdir", help="service store, logs, compile cache and candidate files (default: a temporary folder)")
    ap.add_argument("--dry-run", action="store_true", help="print the plan (tasks, candidates per class) as JSON; no service")
    ap.add_argument("--cpu-test-mode", action="store_true", help="pass --cpu-test-mode to serve (and --no-gpu to eval): for tests")
    ap.add_argument("--workers", type=int, default=0, help="serve --workers (default: the service's own choice)")
    ap.add_argument("--workers-per-gpu", type=int, default=4, help="serve --workers-per-gpu (default 4)")
    ap.add_argument("--batch", type=int, default=8, help="serve --batch (default 8)")
    ap.add_argument("--time-budget", type=float, default=0.2, help="sampling seconds per perf config (default 0.2)")
    ap.add_argument("--torch-route", choices=("auto", "serve", "eval"), default="auto",
                    help="torch2cuda candidates through the service, through `cudaperf eval`, or the service and "
                         "`cudaperf eval` for the tasks it rejects (auto, the default)")
    ap.add_argument("--deadline-s", type=float, default=0, help="stop after this many seconds with what is done (0: none)")
    ap.add_argument("--floor-compile-sample", type=int, default=6,
                    help="C-to-CUDA candidates built one at a time with the engine's nvcc line after the steps, for "
                         "the compile-time floor (default 6; 0: none)")
    ap.add_argument("--kernelbench-sample", type=int, default=0,
                    help="also run bench/kernelbench_loop.py on N of step 1's torch2cuda candidates (GPU only)")
    ap.add_argument("--kernelbench-python", default=sys.executable, help="interpreter with torch for the KernelBench loop")
    a = ap.parse_args(argv)
    a.kinds = tuple(k for k in a.kinds.split(",") if k)
    if any(k not in workload.KINDS for k in a.kinds) or not a.kinds:
        ap.error(f"--kinds: a comma-separated subset of {','.join(workload.KINDS)}")
    if a.kernelbench_sample and a.cpu_test_mode:
        ap.error("--kernelbench-sample needs a GPU (not with --cpu-test-mode)")
    if not a.dry_run and not a.json:
        ap.error("--json PATH is needed for a run")
    try:
        a.class_shares = workload.parse_shares(a.shares)
    except workload.WorkloadError as e:
        ap.error(str(e))
    return a


def settings_of(a):
    return {k: getattr(a, k) for k in ("tasks_root", "prompts", "samples", "steps", "seed", "kinds", "torch_share",
                                         "class_shares", "cpu_test_mode", "workers", "workers_per_gpu", "batch",
                                         "time_budget", "torch_route", "deadline_s", "floor_compile_sample",
                                         "kernelbench_sample")}


def candidate_rows(cands):
    keep = ("step", "prompt", "sample", "task", "kind", "class", "base", "edit", "sha", "duplicate_of")
    return [{k: c[k] for k in keep if k in c} for c in cands]


# ---------------------------------------------------------------- the service

def start_service(a, workdir, n_candidates):
    """rl/service.py's Service with this run's options (its dataset root is data/tasks unless it takes `root`)."""
    from rl.service import Service
    extra = ["--workers-per-gpu", str(a.workers_per_gpu), "--batch", str(a.batch),
             "--queue-limit", str(max(1000, 4 * n_candidates))]
    kw = {"cpu_test_mode": a.cpu_test_mode, "workers": a.workers, "time_budget_s": a.time_budget, "extra": extra}
    if "root" in inspect.signature(Service).parameters:
        kw["root"] = Path(a.tasks_root)
    elif Path(a.tasks_root).resolve() != (REPO / "data" / "tasks").resolve():
        raise SystemExit("rl_step_load: rl/service.py's Service serves data/tasks only; --tasks-root must be data/tasks")
    return Service(a.bin, workdir, **kw)


def store_rows(store, keys):
    """{(task, source): job row} of the store for the given keys (duplicates share one job)."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT task, source, state, worker, created, started, finished, result FROM jobs").fetchall()
    finally:
        db.close()
    out = {}
    for task, source, state, worker, created, started, finished, result in rows:
        if (task, source) in keys:
            out[(task, source)] = {"state": state, "worker": worker, "created": created, "started": started,
                                   "finished": finished, "result": json.loads(result) if result else None}
    return out


def submit_to_service(url, cands, timeout_s):
    """All candidates in one POST (the service dedupes), then waits for every result. A task the
    service does not know (400 "unknown task") is taken out and the rest sent again (a 400 stores
    nothing). Returns (rejected {task: message}, timed_out)."""
    from cudaperf.client import Client, CudaperfBadRequest, CudaperfTimeout
    rejected, left = {}, list(cands)
    deadline = time.monotonic() + timeout_s
    while left:
        client = Client(url, timeout_s=max(1.0, deadline - time.monotonic()), max_batch=len(left) + 1)
        try:
            client.evaluate([{"task": c["task"], "source": c["source"]} for c in left])
            return rejected, False
        except CudaperfBadRequest as e:
            m = re.search(r"unknown task '([^']+)'", str(e))
            if not m:
                raise
            rejected[m.group(1)] = str(e)
            left = [c for c in left if c["task"] != m.group(1)]
        except CudaperfTimeout:
            return rejected, True
    return rejected, False


# ---------------------------------------------------------------- the eval route

def tasks_the_service_rejects(url, tasks):
    """{task: message} for the tasks the service does not know, asked without storing a job: each
    request carries a source over the service's size limit, so a known task is refused for its size
    (400 too) and an unknown one for its name (the task is checked first)."""
    from cudaperf.client import Client, CudaperfBadRequest
    client, out = Client(url, timeout_s=30), {}
    for task in tasks:
        try:
            client.evaluate([{"task": task, "source": "/" * PROBE_SOURCE_BYTES}], wait_s=0)
            raise SystemExit(f"rl_step_load: the service stored a {PROBE_SOURCE_BYTES}-byte probe for {task}")
        except CudaperfBadRequest as e:
            if "unknown task" in str(e):
                out[task] = str(e)
    return out


def task_dir_of(a, task):
    d = Path(a.tasks_root) / task
    return d if (d / "task.toml").is_file() else Path(a.tasks_root) / "c2cuda" / task


def write_eval_candidates(a, cands, workdir, step):
    """The eval route's files: {task: [(source, file)]} of the distinct sources, and the tree they are in.
    A torch2cuda task is copied without its impls/, which holds this step's candidates instead (so
    `tasks check-gpu --build-only` builds exactly them); a C-to-CUDA candidate is a file beside it."""
    tree = Path(workdir) / f"step{step}" / "eval-tree"
    groups = {}
    for c in cands:
        groups.setdefault(c["task"], {"kind": c["kind"], "sources": []})
        if c["source"] not in groups[c["task"]]["sources"]:
            groups[c["task"]]["sources"].append(c["source"])
    out = {}
    for task, g in sorted(groups.items()):
        src_dir = task_dir_of(a, task)
        if g["kind"] == "torch2cuda":
            dst = tree / task
            shutil.copytree(src_dir, dst, ignore=shutil.ignore_patterns("impls"), dirs_exist_ok=True)
            (dst / "impls").mkdir(parents=True, exist_ok=True)
            if len(g["sources"]) < 2:  # a torch2cuda task needs two impls to load
                first = sorted((src_dir / "impls").glob("*.py"))[0]
                shutil.copy(first, dst / "impls" / first.name)
            folder, ext = dst / "impls", ".py"
        else:
            folder, ext = tree / "c2cuda-candidates" / task.replace("/", "__"), ".cu"
            folder.mkdir(parents=True, exist_ok=True)
        out[task] = []
        for k, s in enumerate(g["sources"]):
            f = folder / f"rl{k:03d}{ext}"
            f.write_text(s, encoding="utf-8")
            out[task].append((s, str(f)))
    return out, tree


def prebuild(a, tree):
    """`tasks check-gpu TREE --build-only`: every torch2cuda candidate's extensions into the cache, in
    parallel on the host's cores (no GPU), while the service scores its share of the step."""
    t = time.monotonic()
    js = tree / "prebuild.json"
    p = subprocess.run([a.bin, "tasks", "check-gpu", str(tree), "--build-only", "-j", str(len(os.sched_getaffinity(0))),
                        "--json", str(js)], capture_output=True, text=True)
    builds = json.loads(js.read_text()).get("builds", []) if js.is_file() else []
    secs = [b["seconds"] for b in builds if isinstance(b.get("seconds"), (int, float)) and b["seconds"] > 0]
    return {"seconds": round(time.monotonic() - t, 3), "exit": p.returncode, "built": len(secs),
            "build_s_median": round(statistics.median(secs), 3) if secs else None, "tail": (p.stdout + p.stderr)[-600:]}


def eval_route(a, groups, tree, t0, remaining):
    """One `cudaperf eval` per task with its distinct sources, one task after another (the GPU).
    Returns {(task, source): outcome}."""
    out = {}
    for task, files in groups.items():
        left = remaining()
        if left < 10:
            for s, _ in files:
                out[(task, s)] = {"verdict": "not_run", "final": False, "done_s": None, "report": None}
            continue
        root = tree if task.startswith("torch2cuda/") else a.tasks_root
        reps, secs = run_eval(a.bin, str(root), task, [f for _, f in files], a.cpu_test_mode, a.time_budget, "strict",
                              min(900, left))
        done = time.time() - t0
        for (s, _), r in zip(files, reps):
            v = r.get("verdict", "?")
            out[(task, s)] = {"verdict": v, "final": v != "pending_gpu" and r.get("complete") is not False,
                              "done_s": done, "report": r, "eval_group_s": secs, "message": str(r.get("message", ""))[:300]}
    return out


# ---------------------------------------------------------------- one step

def gpu_kernel_s(configs):
    """GPU seconds of the timed samples of one result: timed calls (or samples) x median per config."""
    total = 0.0
    for c in configs or []:
        n = c.get("timed_calls") or c.get("samples") or 0
        if isinstance(n, (int, float)) and isinstance(c.get("median_ms"), (int, float)) and c["median_ms"] > 0:
            total += n * c["median_ms"] / 1000.0
    return total


def serve_time(rows):
    """Where the service's time went for these distinct jobs: queue wait, busy batches, GPU-run stages."""
    done = [r for r in rows if r["state"] == "done" and r["result"]]
    if not done:
        return {"jobs": 0}
    stages = {}
    for r in done:
        add_run_stages(stages, r["result"])
    batches = []  # a worker claims a batch's jobs within milliseconds, the next batch only after it finished
    for r in sorted(done, key=lambda r: (r["worker"], r["started"])):
        if batches and batches[-1][0]["worker"] == r["worker"] and r["started"] - batches[-1][-1]["started"] < 1.0:
            batches[-1].append(r)
        else:
            batches.append([r])
    busy = sum(max(x["finished"] for x in b) - b[0]["started"] for b in batches)
    waits = [r["started"] - r["created"] for r in done]
    return {"jobs": len(done), "batches": len(batches), "batch_size_mean": round(len(done) / len(batches), 2),
            "queue_wait_s": {"mean": round(statistics.mean(waits), 3), "max": round(max(waits), 3)},
            "worker_busy_s": round(busy, 3),
            "gpu_run_stages_s": {k: round(v, 3) for k, v in sorted(stages.items())},
            "outside_gpu_run_s": round(busy - stages.get("wall_s", 0.0), 3)}


def eval_time(outcomes):
    """The eval route's stage seconds summed over its candidates, and its wall time."""
    stages, groups = {}, {}
    for o in outcomes:
        rep = o.get("report") or {}
        for k, v in (rep.get("stages") or {}).items():
            if isinstance(v, (int, float)) and k.endswith("_s"):
                stages[k] = stages.get(k, 0.0) + v
        if o.get("eval_group_s") is not None:
            groups[o["done_s"]] = o["eval_group_s"]
    return {"candidates": len(outcomes), "wall_s": round(sum(groups.values()), 3),
            "stages_s": {k: round(v, 3) for k, v in sorted(stages.items())}}


def rate(n, seconds):
    return round(60.0 * n / seconds, 2) if n and seconds and seconds > 0 else None


def run_step(a, ctx, cands, step):
    """Submits one step and returns (its report, per-candidate outcomes)."""
    to_eval = [c for c in cands if c["task"] in ctx["eval_tasks"]]
    to_serve = [c for c in cands if c["task"] not in ctx["eval_tasks"]]
    groups, tree = write_eval_candidates(a, to_eval, ctx["workdir"], step) if to_eval else ({}, None)
    built = {}
    t0 = time.time()
    builder = None
    if any(t.startswith("torch2cuda/") for t in groups) and not a.cpu_test_mode:
        builder = threading.Thread(target=lambda: built.update(prebuild(a, tree)), daemon=True)
        builder.start()
    rejected, timed_out = submit_to_service(ctx["url"], to_serve, ctx["remaining"]()) if to_serve else ({}, False)
    client_s = time.time() - t0
    for task, msg in rejected.items():  # not found by the probe: reported, not evaluated
        ctx["rejected"][task] = msg
    keys = {(c["task"], c["source"]) for c in to_serve if c["task"] not in rejected}
    rows = store_rows(ctx["store"], keys)
    outcome = {}
    for k in keys:
        r = rows.get(k)
        res = (r or {}).get("result") or {}
        done = r is not None and r["state"] == "done"
        outcome[k] = {"route": "serve", "verdict": res.get("verdict", "not_done") if done else "not_done",
                      "final": bool(res.get("final")), "done_s": (r["finished"] - t0) if done else None,
                      "configs": res.get("configs"), "row": r, "message": str(res.get("message", ""))[:300]}
    if builder:
        builder.join()
    if groups:
        for k, o in eval_route(a, groups, tree, t0, ctx["remaining"]).items():
            o["route"] = "eval"
            o["configs"] = (o.get("report") or {}).get("configs")
            outcome[k] = o
    for c in cands:
        if (c["task"], c["source"]) not in outcome:
            outcome[(c["task"], c["source"])] = {"route": "rejected", "verdict": "rejected", "final": False, "done_s": None}
    per_kind, verdicts, by_class = {}, {}, {}
    for c in cands:
        o = outcome[(c["task"], c["source"])]
        pk = per_kind.setdefault(c["kind"], {"candidates": 0, "distinct": set(), "done": 0, "last_reward_s": None,
                                             "routes": set(), "verdicts": {}})
        pk["candidates"] += 1
        pk["distinct"].add((c["task"], c["source"]))
        pk["routes"].add(o["route"])
        if o["done_s"] is not None:
            pk["done"] += 1
            pk["last_reward_s"] = max(pk["last_reward_s"] or 0.0, o["done_s"])
        pk["verdicts"][o["verdict"]] = pk["verdicts"].get(o["verdict"], 0) + 1
        verdicts[o["verdict"]] = verdicts.get(o["verdict"], 0) + 1
        bc = by_class.setdefault(c["class"], {})
        bc[o["verdict"]] = bc.get(o["verdict"], 0) + 1
    for pk in per_kind.values():
        pk["distinct"] = len(pk["distinct"])
        pk["routes"] = sorted(pk["routes"])
        pk["candidates_per_min"] = rate(pk["done"], pk["last_reward_s"])
    done_s = [o["done_s"] for o in outcome.values() if o["done_s"] is not None]
    complete = all(outcome[(c["task"], c["source"])]["done_s"] is not None for c in cands)
    latency = max(done_s) if done_s else None
    lat_all = [outcome[(c["task"], c["source"])]["done_s"] for c in cands]
    lat_all = [x for x in lat_all if x is not None]
    rep = {"step": step, "warm": step > 1, "complete": complete, "timed_out": timed_out,
           "candidates": len(cands), "distinct_sources": len(outcome),
           "done": sum(1 for c in cands if outcome[(c["task"], c["source"])]["done_s"] is not None),
           "step_latency_s": round(latency, 3) if complete and latency is not None else None,
           "last_reward_s": round(latency, 3) if latency is not None else None,
           "service_wait_s": round(client_s, 3),
           "candidates_per_min": rate(len(lat_all), latency),
           "reward_latency_s": {"p50": pct(lat_all, 50), "p90": pct(lat_all, 90), "max": max(lat_all) if lat_all else None},
           "per_kind": per_kind, "verdicts": verdicts, "verdicts_by_class": by_class,
           "time": {"serve": serve_time([o["row"] for o in outcome.values() if o["route"] == "serve" and o.get("row")]),
                    "eval": dict(eval_time([o for o in outcome.values() if o["route"] == "eval"]), prebuild=built or None)},
           "gpu_kernel_s": {k: round(sum(gpu_kernel_s(o.get("configs")) for (t, s), o in outcome.items()
                                         if kind_of(ctx, t) == k), 6) for k in per_kind}}
    return rep, outcome


def kind_of(ctx, task):
    return ctx["kinds"][task]


# ---------------------------------------------------------------- after the steps

def compile_probe(a, cands, workdir, remaining):
    """Seconds per C-to-CUDA build with the engine's nvcc line, one at a time on an idle host."""
    nvcc = os.environ.get("CUDAPERF_NVCC") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").is_file() else "nvcc")
    pick = sorted({c["source"] for c in cands if c["kind"] == "c2cuda" and c["class"] != "compile_error"})
    pick = random.Random(a.seed).sample(pick, min(a.floor_compile_sample, len(pick)))
    folder = Path(workdir) / "compile-probe"
    folder.mkdir(parents=True, exist_ok=True)
    secs, failed = [], 0
    for k, src in enumerate(pick):
        if remaining() < 20:
            break
        f = folder / f"p{k}.cu"
        f.write_text(src, encoding="utf-8")
        t = time.monotonic()
        try:
            p = subprocess.run([nvcc, *ENGINE_NVCC_FLAGS, str(f), "-o", str(folder / f"p{k}.so")], capture_output=True,
                               timeout=300)
        except (OSError, subprocess.TimeoutExpired):
            failed += 1
            continue
        if p.returncode == 0:
            secs.append(time.monotonic() - t)
        else:
            failed += 1
    return {"nvcc": nvcc, "built": len(secs), "failed": failed,
            "mean_s": round(statistics.mean(secs), 3) if secs else None,
            "median_s": round(statistics.median(secs), 3) if secs else None}


def kernelbench_baseline(a, cands, workdir, remaining):
    """bench/kernelbench_loop.py on N of step 1's distinct torch2cuda impl candidates."""
    pool = sorted({(c["task"], c["source"]) for c in cands if c["kind"] == "torch2cuda" and c["class"] == "impl"})
    pick = random.Random(a.seed + 1).sample(pool, min(a.kernelbench_sample, len(pool)))
    if not pick:
        return {"error": "no torch2cuda impl candidates in step 1"}
    items = [{"kind": "torch2cuda", "task_dir": str(Path(a.tasks_root) / t)} for t, _ in pick]
    root = Path(torch_tree(items, str(Path(workdir) / "kernelbench"), a.tasks_root))
    files = []
    for k, (task, src) in enumerate(pick):
        f = root / task / "rl_candidates" / f"c{k}.py"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(src, encoding="utf-8")
        files.append(str(f))
    out = Path(workdir) / "kernelbench.json"
    cmd = [a.kernelbench_python, str(BENCH / "kernelbench_loop.py"), "--candidates", *files, "--out", str(out),
           "--python", a.kernelbench_python]
    if a.deadline_s:  # start no candidate that could not finish before the deadline
        cmd += ["--deadline", str(max(1, int(remaining() - KB_SECONDS_PER_CANDIDATE)))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or not out.is_file():
        return {"error": f"kernelbench_loop exited {p.returncode}: {p.stderr[-600:]}", "candidates": len(files)}
    doc = json.loads(out.read_text())
    return {"candidates": len(files), "tasks": [t for t, _ in pick], "totals": doc.get("totals"), "env": doc.get("env"),
            "compile_s": [c.get("compile_s") for c in doc.get("candidates", [])]}


def floors(report, probe, kb, outcomes):
    """Per step: the compile CPU-seconds (builds per kind x seconds per build) spread over the cores,
    plus the GPU seconds of the timed samples; the step latency over that floor."""
    cores = len(os.sched_getaffinity(0))
    torch_build = None
    kb_compile = [x for x in (kb or {}).get("compile_s", []) if isinstance(x, (int, float))]
    if kb_compile:
        torch_build, torch_src = statistics.median(kb_compile), "kernelbench_loop compile_s median (cold load_inline)"
    for st, outcome in zip(report["steps"], outcomes):
        builds = [b for o in outcome.values() for b in [((o.get("report") or {}).get("stages") or {}).get("build_s")]
                  if isinstance(b, (int, float)) and b > 0]
        pre = (st["time"]["eval"].get("prebuild") or {}).get("build_s_median")
        per_build = {"c2cuda": probe.get("mean_s") if probe else None}
        src = {"c2cuda": "compile probe mean (engine's nvcc line, one at a time)"}
        if torch_build is not None:
            per_build["torch2cuda"], src["torch2cuda"] = torch_build, torch_src
        elif pre:
            per_build["torch2cuda"], src["torch2cuda"] = pre, "median prebuild seconds (check-gpu --build-only, side by side)"
        elif builds:
            per_build["torch2cuda"] = statistics.median(builds)
            src["torch2cuda"] = "median build_s of the eval route's results (builds side by side)"
        compile_cpu, missing = 0.0, []
        for kind, pk in st["per_kind"].items():
            if per_build.get(kind) is None:
                missing.append(kind)
            else:
                compile_cpu += pk["distinct"] * per_build[kind]
        gpu = sum(st["gpu_kernel_s"].values())
        floor_s = compile_cpu / cores + gpu
        st["floor"] = {"cores": cores, "seconds_per_build": per_build, "build_time_from": src,
                       "compile_cpu_s": round(compile_cpu, 3), "compile_on_cores_s": round(compile_cpu / cores, 3),
                       "gpu_kernel_s": round(gpu, 6), "floor_s": round(floor_s, 3), "kinds_without_build_time": missing,
                       "latency_over_floor": round(st["step_latency_s"] / floor_s, 2)
                       if st["step_latency_s"] and floor_s > 0 else None}


def throughput(report):
    """Candidates/min per kind: cold = step 1, warm = the later steps together."""
    out = {"cold": {}, "warm": {}}
    for phase, steps in (("cold", report["steps"][:1]), ("warm", report["steps"][1:])):
        kinds = sorted({k for s in steps for k in s["per_kind"]})
        for k in kinds:
            n = sum(s["per_kind"][k]["done"] for s in steps if k in s["per_kind"])
            t = sum(s["per_kind"][k]["last_reward_s"] or 0 for s in steps if k in s["per_kind"])
            out[phase][k] = rate(n, t)
        n = sum(s["done"] for s in steps)
        out[phase]["all"] = rate(n, sum(s["last_reward_s"] or 0 for s in steps))
    return out


def bars(report):
    out = {}
    for phase, per in report["throughput"].items():
        for kind, v in per.items():
            if kind in BARS:
                bar = BARS[kind][phase]
                out[f"{kind}_{phase}_per_min"] = {"value": v, "bar": bar, "met": v is not None and v >= bar}
    for st in report["steps"]:
        out[f"step{st['step']}_latency_s"] = {"value": st["step_latency_s"], "bar": BARS["step_latency_s"],
                                              "met": st["step_latency_s"] is not None and st["step_latency_s"] < BARS["step_latency_s"],
                                              "candidates": st["candidates"]}
    return out


# ---------------------------------------------------------------- main

def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        plan = workload.build_plan(a.tasks_root, a.prompts, a.samples, a.steps, a.seed, a.kinds, a.torch_share,
                                   a.class_shares)
    except workload.WorkloadError as e:
        print(f"rl_step_load: {e}", file=sys.stderr)
        return 2
    doc = {"settings": settings_of(a), "tasks": plan["tasks"], "plan": workload.summarize_plan(plan)}
    if a.dry_run:
        doc["candidates"] = [r for s in plan["steps"] for r in candidate_rows(s)]
        text = json.dumps(doc, indent=1)
        if a.json:
            Path(a.json).write_text(text + "\n")
        print(text)
        return 0
    from rl.service import find_binary
    a.bin = find_binary(a.bin)
    t_start = time.monotonic()

    def remaining():
        return (a.deadline_s - MARGIN_S - (time.monotonic() - t_start)) if a.deadline_s else 3600.0

    workdir = Path(a.workdir or tempfile.mkdtemp(prefix="rl-step-load-"))
    workdir.mkdir(parents=True, exist_ok=True)
    os.environ["CUDAPERF_CACHE_DIR"] = str(workdir / "cache")  # cold: nothing built before this run
    report = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "argv": sys.argv, "bin": a.bin,
              "workdir": str(workdir), **doc, "steps": [], "rejected_by_service": {}}
    out_path = Path(a.json)
    out_path.parent.mkdir(parents=True, exist_ok=True)

    def save():
        out_path.write_text(json.dumps(report, indent=1) + "\n")

    n_all = sum(len(s) for s in plan["steps"])
    svc = start_service(a, workdir, n_all)
    outcomes = []
    try:
        report["service"] = svc.health()
        torch_tasks = [t["task"] for t in plan["tasks"] if t["kind"] == "torch2cuda"]
        if a.torch_route in ("auto", "serve"):
            report["rejected_by_service"].update(tasks_the_service_rejects(svc.url, torch_tasks))
        eval_tasks = set(torch_tasks) if a.torch_route == "eval" else \
            set(report["rejected_by_service"]) if a.torch_route == "auto" else set()
        # what the compile probe and the KernelBench loop need after the steps is kept for them
        reserve = (KB_SECONDS_PER_CANDIDATE * a.kernelbench_sample + 30 if a.kernelbench_sample else 0) + \
            (PROBE_RESERVE_S if a.floor_compile_sample else 0)
        ctx = {"url": svc.url, "store": svc.log.parent / f"jobs-{svc.port}.sqlite", "workdir": workdir,
               "remaining": lambda: remaining() - reserve, "rejected": report["rejected_by_service"], "eval_tasks": eval_tasks,
               "kinds": {t["task"]: t["kind"] for t in plan["tasks"]}}
        for k, cands in enumerate(plan["steps"], 1):
            if ctx["remaining"]() < 10:
                break
            st, outcome = run_step(a, ctx, cands, k)
            report["steps"].append(st)
            outcomes.append(outcome)
            for c in cands:
                o = outcome[(c["task"], c["source"])]
                c.update(route=o["route"], verdict=o["verdict"], final=o["final"], message=o.get("message", ""),
                         latency_s=round(o["done_s"], 3) if o["done_s"] is not None else None)
            print(f"step {k}: {st['done']}/{st['candidates']} rewards, last after {st['last_reward_s']} s; "
                  f"verdicts {st['verdicts']}", file=sys.stderr, flush=True)
            save()
    finally:
        report["service_exit"] = svc.stop()
    ran = plan["steps"][:len(report["steps"])]
    report["candidates"] = [dict(candidate_rows([c])[0], route=c.get("route"), verdict=c.get("verdict"),
                                 final=c.get("final"), latency_s=c.get("latency_s"), message=c.get("message", ""))
                            for s in ran for c in s]
    probe = compile_probe(a, ran[0], workdir, remaining) if ran and a.floor_compile_sample > 0 else None
    report["compile_probe"] = probe
    save()
    kb = kernelbench_baseline(a, ran[0], workdir, remaining) if ran and a.kernelbench_sample > 0 else None
    report["kernelbench"] = kb
    report["throughput"] = throughput(report)
    if kb and (kb.get("totals") or {}).get("candidates_per_min"):
        ours = report["throughput"]["cold"].get("torch2cuda")
        kb["cudaperf_torch_cold_per_min"] = ours
        kb["ratio_vs_kernelbench"] = round(ours / kb["totals"]["candidates_per_min"], 2) if ours else None
    floors(report, probe, kb, outcomes)
    report["step_latency_s"] = [s["step_latency_s"] for s in report["steps"]]
    report["bars"] = bars(report)
    report["seconds"] = round(time.monotonic() - t_start, 1)
    save()
    print(json.dumps({"throughput": report["throughput"], "step_latency_s": report["step_latency_s"],
                      "floor_ratio": [s["floor"]["latency_over_floor"] for s in report["steps"]],
                      "rejected_by_service": sorted(report["rejected_by_service"])}, indent=1))
    complete = len(report["steps"]) == a.steps and all(s["complete"] for s in report["steps"])
    return 0 if complete else 3


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A straightforward KernelBench-style evaluation loop: the baseline for issue 8's "candidates per
minute" comparison with `cudaperf tasks check-gpu` (bench/README-kernelbench-loop.md).

For every candidate (a ModelNew file), one FRESH Python process (as KernelBench starts one per
candidate):
  1. reference.py is imported and the task's perf config globals are set on it;
  2. the candidate module is imported, which compiles its load_inline extensions (TORCH_EXTENSIONS_DIR
     is a fresh, empty folder per candidate unless --ext-dir is given, so the build is cold);
  3. Model and ModelNew are built from get_init_inputs() after the same fixed seed, ModelNew gets
     Model's weights (load_state_dict, strict);
  4. 5 correctness trials, each with fresh inputs from get_inputs() (own seed per trial), outputs
     compared with torch.allclose at the task's tolerance;
  5. if every trial passed: a few warm-up calls, then 100 timed calls, each between two CUDA events
     followed by a synchronize; no L2 flush, the same inputs every call; the mean in ms is reported.

It is deliberately simple: no isolation beyond the process, no secret seeds, no L2 flush, no fresh
inputs per timed call, no guards. Standard library + torch only (nothing from cudaperf), and torch
is imported only inside the per-candidate process, so --help and --dry-run run without torch.

  python3 bench/kernelbench_loop.py --tasks data/tasks/torch2cuda/activations --out $OUT/kb-loop.json
  python3 bench/kernelbench_loop.py --candidates data/tasks/torch2cuda/activations/elu/impls/naive.py
  python3 bench/kernelbench_loop.py --tasks data/tasks/torch2cuda --dry-run      # the plan, no torch
"""
from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import pathlib
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    try:
        import tomli as tomllib  # type: ignore
    except ModuleNotFoundError:
        tomllib = None

KERNELBENCH_DEFAULT_TOL = {"rtol": 1e-2, "atol": 1e-2}  # used only when a task.toml has no tolerance


class PlanError(Exception):
    """A task folder, config or candidate the loop cannot use (exit status 2)."""


# ------------------------------------------------------------------------------------------ plan

def read_toml(path):
    if tomllib is None:
        raise PlanError("reading task.toml needs Python >= 3.11 (tomllib) or the tomli package")
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise PlanError(f"{path}: cannot read: {e}") from None


def pick_config(task_toml, configs, wanted):
    """The config to run: --config NAME, else the perf one (`perf = true`, else name "perf", else the
    first whose name starts with "perf", which is the engine's rule)."""
    if not isinstance(configs, list) or not all(isinstance(c, dict) for c in configs):
        raise PlanError(f"{task_toml}: `configs` must be an array of tables")
    if wanted:
        for c in configs:
            if c.get("name") == wanted:
                return c
        raise PlanError(f"{task_toml}: no config named {wanted!r} (have {[c.get('name') for c in configs]})")
    for rule in (lambda c: c.get("perf") is True, lambda c: c.get("name") == "perf",
                 lambda c: str(c.get("name", "")).startswith("perf")):
        hits = [c for c in configs if rule(c)]
        if hits:
            return hits[0]
    raise PlanError(f"{task_toml}: no perf config (`perf = true` or a name starting with \"perf\")")


def config_globals(cfg):
    return {k: v for k, v in cfg.items() if k != "name" and not (k == "perf" and isinstance(v, bool))}


def module_level_names(path):
    """Names assigned at module level in reference.py (read with ast: no import, no torch)."""
    try:
        tree = ast.parse(pathlib.Path(path).read_text(), filename=str(path))
    except (OSError, SyntaxError):
        return None
    names = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    names.add(n.id)
    return names


def load_task(task_dir, wanted_config):
    task_dir = pathlib.Path(task_dir).resolve()
    toml_path = task_dir / "task.toml"
    t = read_toml(toml_path)
    if t.get("kind") != "torch2cuda":
        return None
    ref = task_dir / "reference.py"
    if not ref.is_file():
        raise PlanError(f"{task_dir}: no reference.py")
    cfg = pick_config(toml_path, t.get("configs"), wanted_config)
    glob = config_globals(cfg)
    tol = t.get("tolerance")
    tol_source = "task"
    if not isinstance(tol, dict) or not {"rtol", "atol"} <= set(tol):
        tol, tol_source = dict(KERNELBENCH_DEFAULT_TOL), "kernelbench default"
    known = module_level_names(ref)
    return {
        "task": t.get("id") or task_dir.name,
        "task_dir": str(task_dir),
        "reference": str(ref),
        "config": cfg.get("name"),
        "globals": glob,
        "unknown_globals": sorted(k for k in glob if known is not None and k not in known),
        "tolerance": {"rtol": float(tol["rtol"]), "atol": float(tol["atol"])},
        "tolerance_source": tol_source,
        "input_dist": t.get("input_dist", "as_written"),
        "impls": [str(p.resolve()) for p in sorted(task_dir.glob("impls/*.py"))],
    }


def find_task_dir(candidate):
    for d in pathlib.Path(candidate).resolve().parents:
        if (d / "task.toml").is_file():
            return d
    return None


def build_plan(args):
    tasks, skipped, order = {}, [], []
    for d in args.tasks or []:
        d = pathlib.Path(d)
        if not d.is_dir():
            raise PlanError(f"--tasks {d}: not a folder")
        tomls = [d / "task.toml"] if (d / "task.toml").is_file() else sorted(d.rglob("task.toml"))
        if not tomls:
            raise PlanError(f"--tasks {d}: no task.toml under it")
        for tp in tomls:
            key = str(tp.parent.resolve())
            if key in tasks:
                continue
            task = load_task(tp.parent, args.config)
            if task is None:
                skipped.append({"task_dir": key, "why": "kind is not torch2cuda"})
                continue
            tasks[key] = task
            order.extend((key, p) for p in task["impls"])
    for c in args.candidates or []:
        c = pathlib.Path(c)
        if not c.is_file():
            raise PlanError(f"--candidates {c}: no such file")
        td = find_task_dir(c)
        if td is None:
            raise PlanError(f"--candidates {c}: no task.toml in a folder above it")
        key = str(td)
        if key not in tasks:
            task = load_task(td, args.config)
            if task is None:
                raise PlanError(f"--candidates {c}: {td} is not a torch2cuda task")
            tasks[key] = task
        order.append((key, str(c.resolve())))
    seen, cands = set(), []
    for key, path in order:
        if path in seen:
            continue
        seen.add(path)
        t = tasks[key]
        cands.append({"task": t["task"], "impl": pathlib.Path(path).stem, "candidate": path,
                      "task_dir": t["task_dir"], "reference": t["reference"], "config": t["config"],
                      "globals": t["globals"], "tolerance": t["tolerance"]})
    return {"tasks": list(tasks.values()), "skipped": skipped, "candidates": cands}


def settings_of(args):
    return {
        "trials": args.trials, "timed_runs": args.timed_runs, "warmup": args.warmup, "seed": args.seed,
        "jobs": args.jobs, "timeout_s": args.timeout, "deadline_s": args.deadline, "config": args.config or "perf",
        "build_dir": os.path.abspath(args.ext_dir) if args.ext_dir else "fresh per candidate",
        "inputs_on": args.inputs_on, "time_reference": args.time_reference, "python": args.python,
        "l2_flush": False, "fresh_inputs_per_timed_call": False, "isolation": "one process per candidate",
    }


# ------------------------------------------------------------------------------------ preflight

PREFLIGHT = r"""
import json, sys
out = {"python": sys.version.split()[0]}
try:
    import torch
except Exception as e:
    out["error"] = "torch is not importable: %s: %s" % (type(e).__name__, e)
    print(json.dumps(out)); sys.exit(0)
out["torch"] = torch.__version__
out["torch_cuda"] = torch.version.cuda
out["cuda_available"] = bool(torch.cuda.is_available())
out["device_count"] = torch.cuda.device_count() if out["cuda_available"] else 0
if out["cuda_available"]:
    out["device"] = torch.cuda.get_device_name(0)
try:
    from torch.utils import cpp_extension
    out["cuda_home"] = cpp_extension.CUDA_HOME
except Exception as e:
    out["cuda_home"] = None
    out["cpp_extension_error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
"""


def preflight(python):
    """torch, CUDA and a CUDA toolkit for load_inline, checked in a throwaway process (this one
    never imports torch). Returns the environment facts or raises PlanError with the reason."""
    try:
        p = subprocess.run([python, "-c", PREFLIGHT], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PlanError(f"cannot run {python}: {e}") from None
    try:
        env = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise PlanError(f"{python} failed to start torch (rc {p.returncode}): {p.stderr.strip()[-800:]}") from None
    if "error" in env:
        raise PlanError(f"{env['error']} (interpreter {python}); this loop needs PyTorch with CUDA "
                        "(use --python to pick another interpreter)")
    if not env.get("cuda_available"):
        raise PlanError(f"no CUDA: torch {env.get('torch')} (built for CUDA {env.get('torch_cuda')}) sees no GPU; "
                        "this loop compiles and times CUDA kernels and needs a GPU machine")
    if not env.get("cuda_home"):
        raise PlanError(f"no CUDA toolkit: torch.utils.cpp_extension found no CUDA_HOME/nvcc, so load_inline "
                        f"cannot compile ({env.get('cpp_extension_error', 'set CUDA_HOME')})")
    return env


# ------------------------------------------------------------------------------------- parent

def tail(path, n=1500):
    try:
        data = pathlib.Path(path).read_bytes()
    except OSError:
        return ""
    return data[-n:].decode("utf-8", "replace").strip()


def run_candidate(args, cand, slot, device_count):
    """One candidate in a fresh process with a fresh extensions folder; the parent's view of it."""
    work = tempfile.mkdtemp(prefix="kb-loop-")
    spec = dict(cand, trials=args.trials, timed_runs=args.timed_runs, warmup=args.warmup, seed=args.seed,
                inputs_on=args.inputs_on, time_reference=args.time_reference,
                device_index=(slot % device_count) if device_count > 1 and args.jobs > 1 else None)
    spec_path, result_path, log_path = (os.path.join(work, n) for n in ("spec.json", "result.json", "log.txt"))
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    env = dict(os.environ)
    env["TORCH_EXTENSIONS_DIR"] = os.path.abspath(args.ext_dir) if args.ext_dir else os.path.join(work, "torch_extensions")
    env["PYTHONUNBUFFERED"] = "1"
    row = {"task": cand["task"], "impl": cand["impl"], "candidate": cand["candidate"], "compile_s": None,
           "correct": False, "mean_ms": None, "wall_s": None, "error": None}
    t0 = time.perf_counter()
    try:
        with open(log_path, "wb") as log:
            p = subprocess.Popen([args.python, os.path.abspath(__file__), "--_child", spec_path, result_path],
                                 stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                                 start_new_session=True)
            try:
                rc = p.wait(timeout=args.timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)  # the child's own group: it and its nvcc/ninja
                except ProcessLookupError:
                    pass
                p.wait()
                rc = None
        row["wall_s"] = round(time.perf_counter() - t0, 3)
        res = None
        if os.path.exists(result_path):
            try:
                res = json.loads(pathlib.Path(result_path).read_text())
            except ValueError:
                res = None
        if res:
            row.update({k: v for k, v in res.items() if k not in ("task", "impl", "candidate", "wall_s")})
        if rc is None:
            row["error"] = f"timeout after {args.timeout} s" + (f" (in {res.get('stage')})" if res and res.get("stage") else "")
            row["correct"] = False
            row["mean_ms"] = None
        elif res is None:
            row["error"] = f"process exited with status {rc} without a result: {tail(log_path)}"
        elif rc != 0 and not row.get("error"):
            row["error"] = f"process exited with status {rc}: {tail(log_path)}"
        if row.get("error") and not row.get("log_tail"):
            row["log_tail"] = tail(log_path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return row


def progress(i, n, row):
    if row.get("error"):
        what = "error: " + row["error"].splitlines()[0][:160]
    elif row["correct"]:
        what = f"ok, mean {row['mean_ms']:.4f} ms"
    else:
        what = f"wrong ({row.get('trials_passed', 0)}/{row.get('trials', '?')} trials): {row.get('mismatch', '')[:120]}"
    comp = f"compile {row['compile_s']:.1f} s, " if isinstance(row.get("compile_s"), (int, float)) else ""
    print(f"[{i}/{n}] {row['task']} {row['impl']}: {what} ({comp}wall {row['wall_s']:.1f} s)",
          file=sys.stderr, flush=True)


def run_loop(args, plan):
    t_pre = time.perf_counter()
    env = preflight(args.python)
    pre_s = time.perf_counter() - t_pre
    cands = plan["candidates"]
    n = len(cands)
    print(f"kernelbench loop: {n} candidate(s), torch {env['torch']} (CUDA {env['torch_cuda']}), "
          f"{env.get('device')}, jobs {args.jobs}, build dir: {settings_of(args)['build_dir']}",
          file=sys.stderr, flush=True)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    rows = [None] * n
    done = [0]
    lock = threading.Lock()
    slots = list(range(max(1, args.jobs)))
    next_i = [0]
    t0 = time.perf_counter()

    def worker(slot):
        while True:
            with lock:
                if args.deadline is not None and time.perf_counter() - t0 > args.deadline:
                    return  # no candidate starts after the deadline
                i = next_i[0]
                next_i[0] += 1
            if i >= n:
                return
            row = run_candidate(args, cands[i], slot, env.get("device_count", 1))
            with lock:
                rows[i] = row
                done[0] += 1
                progress(done[0], n, row)

    threads = [threading.Thread(target=worker, args=(s,)) for s in slots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    not_started = [c["candidate"] for c, r in zip(cands, rows) if r is None]
    rows = [r for r in rows if r is not None]
    n = len(rows)
    # compile time of the candidates that ran a load_inline build (a candidate failing before it has none)
    comp = [r["compile_s"] for r in rows if isinstance(r.get("compile_s"), (int, float)) and r.get("extensions")]
    means = [r["mean_ms"] for r in rows if r["correct"] and isinstance(r.get("mean_ms"), (int, float))]
    totals = {
        "candidates": n,
        "correct": sum(1 for r in rows if r["correct"]),
        "wrong": sum(1 for r in rows if not r["correct"] and not r.get("error")),
        "errors": sum(1 for r in rows if r.get("error")),
        "timeouts": sum(1 for r in rows if (r.get("error") or "").startswith("timeout")),
        "wall_s": round(wall, 3),
        "candidates_per_min": round(n / wall * 60.0, 4) if wall > 0 else None,
        "compile_s_median": round(statistics.median(comp), 3) if comp else None,
        "compile_s_mean": round(statistics.fmean(comp), 3) if comp else None,
        "candidate_wall_s_median": round(statistics.median(r["wall_s"] for r in rows), 3) if rows else None,
        "timed": len(means),
        "preflight_s": round(pre_s, 3),
        "not_started": len(not_started),
    }
    return {"tool": "bench/kernelbench_loop.py", "started": started, "host": platform.node(), "env": env,
            "settings": settings_of(args), "candidates": rows, "totals": totals, "not_started": not_started,
            "skipped_tasks": plan["skipped"]}


# -------------------------------------------------------------------------------------- child

def child_main(spec_path, result_path):
    """The per-candidate process. Writes its result (JSON) to result_path at every stage, so a
    crash or a timeout still leaves how far it got."""
    spec = json.loads(pathlib.Path(spec_path).read_text())
    res = {"task": spec["task"], "impl": spec["impl"], "stage": "import torch", "compile_s": None,
           "correct": False, "mean_ms": None, "error": None, "trials": spec["trials"], "trials_passed": 0}

    def save():
        tmp = result_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(res, f)
        os.replace(tmp, result_path)

    def stage(name):
        res["stage"] = name
        save()

    t = time.perf_counter()
    save()
    try:
        import torch
        import torch.utils.cpp_extension as cpp_extension
    except Exception as e:  # noqa: BLE001
        res["error"] = f"torch is not importable: {type(e).__name__}: {e}"
        save()
        return 3
    if not torch.cuda.is_available():
        res["error"] = f"no CUDA: torch {torch.__version__} sees no GPU"
        save()
        return 3
    res["import_torch_s"] = round(time.perf_counter() - t, 3)
    # the dataset's references are fp32 and must run without TF32 (data/tasks/torch2cuda/README.md)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if spec.get("device_index") is not None:
        torch.cuda.set_device(int(spec["device_index"]))
    device = torch.device("cuda", torch.cuda.current_device())
    seed = int(spec["seed"])
    rtol, atol = spec["tolerance"]["rtol"], spec["tolerance"]["atol"]

    def load_module(path, name):
        import importlib.util
        s = importlib.util.spec_from_file_location(name, path)
        m = importlib.util.module_from_spec(s)
        sys.modules[name] = m
        s.loader.exec_module(m)
        return m

    def on_device(xs):
        return [x.to(device) if isinstance(x, torch.Tensor) else x for x in xs]

    def get_inputs(ref):
        if spec.get("inputs_on") == "cuda":
            with torch.device(device):
                return on_device(list(ref.get_inputs()))
        return on_device(list(ref.get_inputs()))

    def as_list(o):
        if isinstance(o, torch.Tensor):
            return [o]
        if isinstance(o, (list, tuple)):
            return list(o)
        raise TypeError(f"output is a {type(o).__name__}, not a tensor or a tuple of tensors")

    def compare(want, got):
        """None when got matches want, else what differs."""
        want, got = as_list(want), as_list(got)
        if len(want) != len(got):
            return f"{len(got)} output(s), expected {len(want)}"
        for k, (w, g) in enumerate(zip(want, got)):
            if not isinstance(g, torch.Tensor):
                return f"output {k} is a {type(g).__name__}"
            if tuple(g.shape) != tuple(w.shape):
                return f"output {k}: shape {tuple(g.shape)}, expected {tuple(w.shape)}"
            if g.dtype != w.dtype:
                return f"output {k}: dtype {g.dtype}, expected {w.dtype}"
            if g.device != w.device:
                return f"output {k}: on {g.device}, expected {w.device}"
            if w.is_floating_point() or w.is_complex():
                ok = torch.allclose(g, w, rtol=rtol, atol=atol)
            else:
                ok = torch.equal(g, w)
            if not ok:
                diff = (g.double() - w.double()).abs().max().item() if g.numel() < (1 << 27) else \
                    (g - w).abs().max().item()
                return f"output {k}: not allclose (rtol {rtol:g}, atol {atol:g}), max |diff| {diff:.4g}"
        return None

    try:
        # 1. reference, with the config's globals
        stage("reference")
        t = time.perf_counter()
        ref = load_module(spec["reference"], "kb_loop_reference")
        for k, v in spec["globals"].items():
            old = getattr(ref, k, None)
            setattr(ref, k, tuple(v) if isinstance(v, list) and isinstance(old, tuple) else v)
        res["reference_s"] = round(time.perf_counter() - t, 3)

        # 2. the candidate: importing it runs load_inline (the build); its time is also summed inside
        # load_inline itself, which is only wrapped to be timed
        stage("compile")
        builds = []
        real_load_inline = cpp_extension.load_inline

        def timed_load_inline(*a, **kw):
            s = time.perf_counter()
            try:
                return real_load_inline(*a, **kw)
            finally:
                builds.append(time.perf_counter() - s)

        cpp_extension.load_inline = timed_load_inline
        t = time.perf_counter()
        try:
            cand = load_module(spec["candidate"], "kb_loop_candidate")
        finally:
            res["compile_s"] = round(time.perf_counter() - t, 3)
            res["load_inline_s"] = round(sum(builds), 3)
            res["extensions"] = len(builds)
            cpp_extension.load_inline = real_load_inline
        if not hasattr(cand, "ModelNew"):
            raise AttributeError("the candidate defines no ModelNew")

        # 3. models from get_init_inputs after the same seed; ModelNew gets Model's weights
        stage("init")
        t = time.perf_counter()
        torch.manual_seed(seed)
        init = on_device(list(ref.get_init_inputs()))
        torch.manual_seed(seed)
        model = ref.Model(*init).to(device).eval()
        torch.manual_seed(seed)
        model_new = cand.ModelNew(*init).to(device).eval()
        model_new.load_state_dict(model.state_dict(), strict=True)
        torch.cuda.synchronize(device)
        res["init_s"] = round(time.perf_counter() - t, 3)

        # 4. correctness: fresh inputs per trial
        stage("correctness")
        t = time.perf_counter()
        rng = random.Random(seed)
        trial_seeds = [rng.randrange(1 << 32) for _ in range(int(spec["trials"]))]
        mismatch = None
        with torch.no_grad():
            for ts in trial_seeds:
                torch.manual_seed(ts)
                inputs = get_inputs(ref)
                want = model(*inputs)
                got = model_new(*inputs)
                torch.cuda.synchronize(device)
                why = compare(want, got)
                if why is None:
                    res["trials_passed"] += 1
                elif mismatch is None:
                    mismatch = why
                del inputs, want, got
        res["correctness_s"] = round(time.perf_counter() - t, 3)
        res["correct"] = res["trials_passed"] == len(trial_seeds)
        if mismatch:
            res["mismatch"] = mismatch

        # 5. timing (only a correct candidate): warm-ups, then one event pair + sync per call
        if res["correct"]:
            stage("timing")
            t = time.perf_counter()
            torch.manual_seed(seed)
            inputs = get_inputs(ref)

            def time_calls(fn):
                with torch.no_grad():
                    for _ in range(int(spec["warmup"])):
                        fn(*inputs)
                    torch.cuda.synchronize(device)
                    times = []
                    for _ in range(int(spec["timed_runs"])):
                        start = torch.cuda.Event(enable_timing=True)
                        end = torch.cuda.Event(enable_timing=True)
                        start.record()
                        fn(*inputs)
                        end.record()
                        torch.cuda.synchronize(device)
                        times.append(start.elapsed_time(end))
                return times

            times = time_calls(model_new)
            res["mean_ms"] = round(statistics.fmean(times), 6)
            res["std_ms"] = round(statistics.pstdev(times), 6)
            res["min_ms"] = round(min(times), 6)
            res["max_ms"] = round(max(times), 6)
            res["median_ms"] = round(statistics.median(times), 6)
            res["timed_runs"] = len(times)
            if spec.get("time_reference"):
                rt = time_calls(model)
                res["reference_mean_ms"] = round(statistics.fmean(rt), 6)
                res["speedup_vs_reference"] = round(res["reference_mean_ms"] / res["mean_ms"], 4) if res["mean_ms"] > 0 else None
            res["timing_s"] = round(time.perf_counter() - t, 3)
        res["stage"] = "done"
        save()
        return 0
    except Exception as e:  # noqa: BLE001 -- the loop records any failure of the candidate and moves on
        res["correct"] = False
        res["mean_ms"] = None
        msg = str(e).strip().splitlines()
        res["error"] = f"{res['stage']}: {type(e).__name__}: " + (" | ".join(msg[-6:]) if msg else "")
        save()
        return 1


# --------------------------------------------------------------------------------------- main

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--_child"]:
        if len(argv) != 3:
            print("usage: --_child SPEC RESULT", file=sys.stderr)
            return 2
        return child_main(argv[1], argv[2])
    ap = argparse.ArgumentParser(
        description="A straightforward KernelBench-style loop over torch2cuda candidates: one fresh process "
                    "per candidate, cold load_inline build, 5 correctness trials, 100 timed runs (CUDA events, "
                    "no L2 flush). The baseline for cudaperf's candidates-per-minute comparison.",
        epilog="See bench/README-kernelbench-loop.md.")
    ap.add_argument("--tasks", nargs="+", metavar="DIR", help="task folders, or folders above them: every impls/*.py")
    ap.add_argument("--candidates", nargs="+", metavar="FILE", help="ModelNew files (their task: the folder above with task.toml)")
    ap.add_argument("--out", metavar="FILE", help="write the JSON here (default: stdout)")
    ap.add_argument("--jobs", type=int, default=1, help="candidates at a time (default 1: sequential, like a single-GPU loop)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per candidate, build included (default 600)")
    ap.add_argument("--deadline", type=float, metavar="S", help="start no candidate after S seconds of the loop "
                    "(the rest are listed in not_started; the rate is over the candidates run)")
    ap.add_argument("--trials", type=int, default=5, help="correctness trials (default 5)")
    ap.add_argument("--timed-runs", type=int, default=100, help="timed calls (default 100)")
    ap.add_argument("--warmup", type=int, default=3, help="warm-up calls before timing (default 3)")
    ap.add_argument("--seed", type=int, default=42, help="the fixed seed (models, trial seeds, timing inputs)")
    ap.add_argument("--config", metavar="NAME", help="run this config instead of the perf one (e.g. tiny, for a smoke run)")
    ap.add_argument("--ext-dir", metavar="DIR", help="one persistent TORCH_EXTENSIONS_DIR for every candidate "
                    "(a second run with the same DIR measures cached builds); default: a fresh empty folder per candidate (cold)")
    ap.add_argument("--inputs-on", choices=("cpu", "cuda"), default="cpu",
                    help="where get_inputs() draws (default cpu, as written, then moved to the GPU)")
    ap.add_argument("--time-reference", action="store_true", help="also time Model with the same loop (speedup_vs_reference)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with torch for the candidate processes (default: this one)")
    ap.add_argument("--dry-run", action="store_true", help="print the plan (tasks, configs, candidates) as JSON; imports no torch")
    args = ap.parse_args(argv)
    if not args.tasks and not args.candidates:
        ap.error("give --tasks DIR... or --candidates FILE...")
    if args.jobs < 1 or args.trials < 1 or args.timed_runs < 1 or args.warmup < 0 or args.timeout <= 0:
        ap.error("--jobs, --trials, --timed-runs must be >= 1, --warmup >= 0, --timeout > 0")
    try:
        plan = build_plan(args)
        if args.dry_run:
            doc = {"mode": "dry-run", "settings": settings_of(args), **plan}
        else:
            if not plan["candidates"]:
                raise PlanError("no candidates (no impls/*.py in the given task folders)")
            doc = run_loop(args, plan)
    except PlanError as e:
        print(f"kernelbench_loop: error: {e}", file=sys.stderr)
        return 2
    text = json.dumps(doc, indent=1)
    if args.out:
        pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(args.out).write_text(text + "\n")
    else:
        print(text)
    if not args.dry_run:
        tt = doc["totals"]
        print(f"kernelbench loop: {tt['candidates']} candidates in {tt['wall_s']:.1f} s = "
              f"{tt['candidates_per_min']} candidates/min; {tt['correct']} correct, {tt['wrong']} wrong, "
              f"{tt['errors']} errors; median compile {tt['compile_s_median']} s"
              + (f"; {tt['not_started']} not started (deadline)" if tt["not_started"] else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

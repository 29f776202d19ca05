#!/usr/bin/env python3
"""Measures the checker (issue 20, item 4): mutants of the dataset implementations of both task kinds
(C-to-CUDA `data/tasks/c2cuda/**/impls/*.cu`, torch2cuda `data/tasks/torch2cuda/**/impls/*.py`: the
CUDA source inside), each evaluated with `cudaperf eval --json`; detection rate per mutation class and
false-positive rate on the honest implementations, as JSON.

Classes (one textual edit at one site of the CUDA code; docs in bench/results/README of the run):
  precision_half      a float output store rounded through __half            (+ #include <cuda_fp16.h>)
  precision_bf16      the same through __nv_bfloat16                          (+ #include <cuda_bf16.h>)
  precision_double    a double output store rounded through float
  dropped_tail_loop   a loop bound `i < n` becomes `i < (n) - 1`
  dropped_tail_guard  a guard `if (i < n)` / `if (i >= n) return` loses the last 32 elements
  off_by_one_index    a load `x[i]` reads `x[(i) + 1]`
  skipped_iteration   `if ((i) == 1) continue;` at the top of a braced loop
  large_accumulation  a float accumulator `acc += v` rounded at magnitude 4096 after each step
  constant_nudge      a non-zero floating literal multiplied by 1 + 1e-3 (not a comparison's operand)
  sync_removed        one __syncthreads() removed
  minmax_swap         one fmaxf/fminf (max/min) swapped
  atomic_race         one statement `atomicAdd(p, v);` made a plain `*(p) += v;`

A mutant that does not build (compile_error / link_error) is stillborn: left out of the rates. A mutant
is detected when its verdict is not ok; `--no-gpu` decides only what the CPU side decides (the rest is
`pending`). Honest implementations (unmutated) must all be ok: each one that is not is a false positive.

    # here (no GPU): generation + CPU-side verdicts of a sample
    python3 bench/mutation_suite.py --bin build/torchtrust/cudaperf --no-gpu --per-class 3 --json /tmp/mut.json
    # on the H200 (one command; ~6 min): see --help for --budget-s
    python3 bench/mutation_suite.py --bin build/ci/cudaperf --per-class 6 --honest 12 --budget-s 330 --json $OUT/mutation.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DETECTING = {"wrong_answer", "out_of_bounds", "runtime_error", "timeout", "nondeterministic", "hack_suspected",
             "input_mutated"}
STILLBORN = {"compile_error", "link_error"}

# ---------------------------------------------------------------- code regions and sites

TRIPLE = re.compile(r'(?:r|R)?("""|\'\'\')(.*?)\1', re.S)


def code_regions(text, kind):
    """(start, end) spans of CUDA code: the whole .cu file, or the string constants of a .py file that
    define a __global__ kernel."""
    if kind == "c2cuda":
        return [(0, len(text))]
    return [(m.start(2), m.end(2)) for m in TRIPLE.finditer(text) if "__global__" in m.group(2)]


KERNEL = re.compile(r"__global__\s+(?:void|[\w:<>]+\s+)\s*\w+\s*\(([^)]*)\)", re.S)


def pointer_params(code):
    """{name: (type, const)} of every pointer parameter of every kernel in the code."""
    out = {}
    for m in KERNEL.finditer(code):
        for p in m.group(1).split(","):
            p = p.strip()
            pm = re.match(r"(const\s+)?(?:unsigned\s+)?(\w+)\s*(?:const\s*)?\*\s*(?:__restrict__\s*)?(?:const\s*)?(\w+)$", p)
            if pm:
                out[pm.group(3)] = (pm.group(2), bool(pm.group(1)) or "const" in p.split("*")[0])
    return out


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def _store_sites(code, types, wrap, include=None):
    params = pointer_params(code)
    outs = [n for n, (t, c) in params.items() if t in types and not c]
    sites = []
    for n in outs:
        for m in re.finditer(r"\b" + re.escape(n) + r"\s*\[([^\]]+)\]\s*=(?!=)\s*([^;]+);", code):
            rhs = m.group(2)
            sites.append((m.start(2), m.end(2), wrap.format(rhs=rhs), include))
    return sites


def sites_precision_half(code):
    return _store_sites(code, {"float"}, "__half2float(__float2half_rn((float)({rhs})))", "#include <cuda_fp16.h>")


def sites_precision_bf16(code):
    return _store_sites(code, {"float"}, "__bfloat162float(__float2bfloat16((float)({rhs})))", "#include <cuda_bf16.h>")


def sites_precision_double(code):
    return _store_sites(code, {"double"}, "(double)(float)({rhs})")


FOR_LT = re.compile(r"for\s*\(([^;]*);\s*([A-Za-z_]\w*)\s*<\s*([^;]+?)\s*;")


def sites_dropped_tail_loop(code):
    return [(m.start(3), m.end(3), f"({m.group(3)}) - 1", None) for m in FOR_LT.finditer(code)]


def sites_dropped_tail_guard(code):
    out = []
    for m in re.finditer(r"if\s*\(\s*([A-Za-z_]\w*)\s*(?:<\s*([A-Za-z_]\w*)\s*\)|>=\s*([A-Za-z_]\w*)\s*\)\s*return)", code):
        g = 2 if m.group(2) else 3
        out.append((m.start(g), m.end(g), f"({m.group(g)}) - 32", None))
    return out


def sites_off_by_one_index(code):
    params = pointer_params(code)
    ins = [n for n, (t, c) in params.items() if c]
    out = []
    for n in ins:
        for m in re.finditer(r"\b" + re.escape(n) + r"\s*\[([^\[\]]+)\](?!\s*=[^=])", code):
            out.append((m.start(1), m.end(1), f"({m.group(1)}) + 1", None))
    return out


def sites_skipped_iteration(code):
    out = []
    for m in re.finditer(r"for\s*\(\s*(?:[\w:]+\s+)*([A-Za-z_]\w*)\s*=[^;]*;[^;]*;[^)]*\)\s*\{", code):
        out.append((m.end(), m.end(), f" if (({m.group(1)}) == 1) continue; ", None))
    return out


def sites_large_accumulation(code):
    accs = set(re.findall(r"\bfloat\s+([A-Za-z_]\w*)\s*=", code))
    out = []
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\+=\s*([^;]+);", code):
        if m.group(1) in accs:
            a = m.group(1)
            out.append((m.end(), m.end(), f" {a} = ({a} + 4096.0f) - 4096.0f;", None))
    return out


FLOAT_LIT = re.compile(r"(?<![\w.])((?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)([fF]?)(?![\w.])")


COMPARED_BEFORE = re.compile(r"(?:[<>]=?|[=!]=)\s*$")
COMPARED_AFTER = re.compile(r"^\s*(?:[<>]=?|[=!]=)")


def sites_constant_nudge(code):
    """Non-zero float literals, except the operands of a comparison: nudging a threshold (a dispatch
    heuristic's `mean < 6.0`) mostly leaves the result as it was, an equivalent mutant, not a wrong one."""
    out = []
    for m in FLOAT_LIT.finditer(code):
        v = float(m.group(1))
        compared = COMPARED_BEFORE.search(code, max(0, m.start() - 8), m.start()) or \
            COMPARED_AFTER.match(code[m.end():m.end() + 8])
        if v != 0.0 and not compared:
            out.append((m.start(), m.end(), f"{v * (1 + 1e-3):.9g}{m.group(2) or ''}" if "e" in f"{v * (1 + 1e-3):.9g}" or
                        "." in f"{v * (1 + 1e-3):.9g}" else f"{v * (1 + 1e-3):.9g}.0{m.group(2) or ''}", None))
    return out


def sites_sync_removed(code):
    return [(m.start(), m.end(), "/* sync removed */", None) for m in re.finditer(r"__syncthreads\(\)\s*;", code)]


def sites_minmax_swap(code):
    swap = {"fmaxf": "fminf", "fminf": "fmaxf", "max": "min", "min": "max", "fmax": "fmin", "fmin": "fmax"}
    return [(m.start(1), m.end(1), swap[m.group(1)], None) for m in re.finditer(r"\b(fmaxf|fminf|fmax|fmin|max|min)\s*\(", code)]


def sites_atomic_race(code):
    return [(m.start(), m.end(), f"*({m.group(1)}) += {m.group(2)};", None)
            for m in re.finditer(r"(?<![\w.])atomicAdd\(\s*([^,;]+?),\s*([^;]+)\)\s*;", code)]


CLASSES = {
    "precision_half": sites_precision_half, "precision_bf16": sites_precision_bf16,
    "precision_double": sites_precision_double, "dropped_tail_loop": sites_dropped_tail_loop,
    "dropped_tail_guard": sites_dropped_tail_guard, "off_by_one_index": sites_off_by_one_index,
    "skipped_iteration": sites_skipped_iteration, "large_accumulation": sites_large_accumulation,
    "constant_nudge": sites_constant_nudge, "sync_removed": sites_sync_removed, "minmax_swap": sites_minmax_swap,
    "atomic_race": sites_atomic_race,
}


def mutants_of(text, kind):
    """[(class, site index, line, mutated text)] of one implementation file."""
    out = []
    for lo, hi in code_regions(text, kind):
        code = text[lo:hi]
        for cls, fn in CLASSES.items():
            for si, (a, b, rep, include) in enumerate(fn(code)):
                new = code[:a] + rep + code[b:]
                if include and include not in new:
                    first = re.search(r"#include[^\n]*\n", new)
                    new = (new[:first.end()] + include + "\n" + new[first.end():]) if first else include + "\n" + new
                mutated = text[:lo] + new + text[hi:]
                if mutated != text:
                    out.append((cls, si, line_of(text, lo + a), mutated))
    return out


# ---------------------------------------------------------------- the dataset

def task_id_of(impl, tasks_root):
    toml = os.path.join(os.path.dirname(os.path.dirname(impl)), "task.toml")
    m = re.search(r'^id\s*=\s*"([^"]+)"', open(toml, encoding="utf-8").read(), re.M)
    return m.group(1) if m else None


def implementations(tasks_root):
    out = []
    for kind, sub, ext in (("c2cuda", "c2cuda", ".cu"), ("torch2cuda", "torch2cuda", ".py")):
        base = os.path.join(tasks_root, sub)
        for d, _, files in sorted(os.walk(base)):
            if os.path.basename(d) != "impls":
                continue
            for f in sorted(files):
                if f.endswith(ext):
                    p = os.path.join(d, f)
                    out.append({"kind": kind, "impl": p, "task": task_id_of(p, tasks_root), "task_dir": os.path.dirname(d)})
    return out


def stratified(pool, per_class, rng):
    """Up to per_class mutants per (kind, class), spread over tasks (one per task before a second)."""
    by = {}
    for m in pool:
        by.setdefault((m["kind"], m["class"]), []).append(m)
    out = []
    for key in sorted(by):
        ms = by[key]
        rng.shuffle(ms)
        seen, first, rest = set(), [], []
        for m in ms:
            (rest if m["task"] in seen else first).append(m)
            seen.add(m["task"])
        out += (first + rest)[:per_class]
    return out


# ---------------------------------------------------------------- evaluation

def run_eval(bin_path, root, task, candidates, no_gpu, time_budget, mode, timeout_s):
    cmd = [bin_path, "eval", "--root", root, "--task", task, "--json", "--time-budget", str(time_budget)]
    for c in candidates:
        cmd += ["--candidate", c]
    if no_gpu:
        cmd.append("--no-gpu")
    if task.startswith("torch2cuda/"):
        cmd += ["--mode", mode]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        out = p.stdout
    except subprocess.TimeoutExpired as ex:
        out = ex.stdout.decode() if isinstance(ex.stdout, bytes) else (ex.stdout or "")
        return [{"verdict": "harness_timeout", "message": f"eval did not finish in {timeout_s} s"}] * len(candidates), \
            time.monotonic() - t0
    try:
        j = json.loads(out[out.index("{") if not out.lstrip().startswith("[") else out.index("["):])
    except ValueError:
        return [{"verdict": "harness_error", "message": (out + p.stderr)[-300:]}] * len(candidates), time.monotonic() - t0
    reps = j if isinstance(j, list) else [j]
    return reps, time.monotonic() - t0


def judged(rep, no_gpu):
    v = rep.get("verdict", "?")
    pending = v in ("ok", "pending_gpu") and (rep.get("gpu_stages") == "skipped" or rep.get("complete") is False)
    return ("pending" if pending else v), str(rep.get("message", ""))[:240]


def torch_tree(items, workdir, tasks_root):
    """A dataset tree holding the torch tasks of the mutants with each mutant as a file beside the task
    (eval --candidate takes any path; the task folder is copied so the original stays untouched)."""
    root = os.path.join(workdir, "tasks")
    for it in items:
        if it["kind"] != "torch2cuda":
            continue
        dst = os.path.join(root, os.path.relpath(it["task_dir"], tasks_root))
        if not os.path.isdir(dst):
            shutil.copytree(it["task_dir"], dst)
    return root


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True, help="the cudaperf binary")
    p.add_argument("--tasks", default=os.path.join(ROOT, "data", "tasks"))
    p.add_argument("--json", required=True, help="where the report goes")
    p.add_argument("--workdir", help="where mutants are written (default: a temporary folder, removed)")
    p.add_argument("--no-gpu", action="store_true", help="CPU-side verdicts only (generation, builds, guards)")
    p.add_argument("--per-class", type=int, default=4, help="mutants per (task kind, class): a stratified sample")
    p.add_argument("--torch-per-class", type=int, help="the same for torch2cuda (default: --per-class)")
    p.add_argument("--c2cuda-share", type=float, default=0.5,
                   help="with --budget-s: the share of it for the C-to-CUDA evaluations (they run first, while the "
                        "torch2cuda extensions build side by side)")
    p.add_argument("--honest", type=int, default=8, help="honest implementations per task kind (0: none)")
    p.add_argument("--kinds", default="c2cuda,torch2cuda")
    p.add_argument("--seed", type=int, default=20)
    p.add_argument("--jobs", type=int, default=0, help="evaluations side by side (default: 1 with a GPU, cores with --no-gpu)")
    p.add_argument("--budget-s", type=float, default=0, help="start no evaluation after this many seconds (0: no limit)")
    p.add_argument("--time-budget", type=float, default=0.1, help="cudaperf eval --time-budget per perf config")
    p.add_argument("--mode", default="strict", choices=["strict", "kernelbench"], help="torch2cuda evaluation mode")
    p.add_argument("--eval-timeout", type=float, default=900)
    p.add_argument("--list-only", action="store_true", help="generate and count, evaluate nothing")
    a = p.parse_args(argv)
    t_start = time.monotonic()
    rng = random.Random(a.seed)
    kinds = set(a.kinds.split(","))
    impls = [i for i in implementations(a.tasks) if i["kind"] in kinds]
    pool = []
    for it in impls:
        text = open(it["impl"], encoding="utf-8").read()
        for cls, si, line, mutated in mutants_of(text, it["kind"]):
            pool.append(dict(it, **{"class": cls, "site": si, "line": line, "text": mutated}))
    counts = {}
    for m in pool:
        counts.setdefault(m["kind"], {}).setdefault(m["class"], 0)
        counts[m["kind"]][m["class"]] += 1
    tpc = a.per_class if a.torch_per_class is None else a.torch_per_class
    sample = stratified([m for m in pool if m["kind"] == "c2cuda"], a.per_class, rng) + \
        stratified([m for m in pool if m["kind"] == "torch2cuda"], tpc, rng)
    honest = []
    for kind in sorted(kinds):
        ks = [i for i in impls if i["kind"] == kind]
        rng.shuffle(ks)
        honest += [dict(i, **{"class": "honest", "site": -1, "line": 0, "text": None}) for i in ks[:a.honest]]
    report = {"date": datetime.date.today().isoformat(), "bin": a.bin, "no_gpu": a.no_gpu, "mode": a.mode,
              "seed": a.seed, "per_class": a.per_class, "implementations": len(impls), "mutants_generated": counts,
              "argv": sys.argv}
    if a.list_only:
        report["sample"] = len(sample)
        json.dump(report, open(a.json, "w"), indent=1)
        print(json.dumps({"generated": counts, "sample": len(sample), "honest": len(honest)}, indent=1))
        return 0
    work = a.workdir or tempfile.mkdtemp(prefix="cudaperf-mutants-")
    os.makedirs(work, exist_ok=True)
    items = sample + honest
    troot = torch_tree(items, work, a.tasks)
    for n, m in enumerate(items):
        if m["text"] is None:
            m["path"] = m["impl"]
            continue
        ext = ".cu" if m["kind"] == "c2cuda" else ".py"
        m["path"] = os.path.join(work, "mutants", f"{n:04d}_{m['class']}_{os.path.basename(m['impl'])[:-len(ext)]}{ext}")
        if m["kind"] == "torch2cuda":  # beside the task's impls in the copied tree: check-gpu --build-only builds them
            m["path"] = os.path.join(troot, os.path.relpath(m["task_dir"], a.tasks), "impls",
                                     f"mut{n:04d}_{m['class']}.py")
        os.makedirs(os.path.dirname(m["path"]), exist_ok=True)
        with open(m["path"], "w", encoding="utf-8") as f:
            f.write(m["text"])
    # One eval per c2cuda candidate; one eval per torch2cuda task with all of its candidates (one
    # reference, shared inputs and baselines).
    groups = [[m] for m in items if m["kind"] == "c2cuda"]
    rng.shuffle(groups)
    by_task = {}
    for m in items:
        if m["kind"] == "torch2cuda":
            by_task.setdefault(m["task"], []).append(m)
    tgroups = list(by_task.values())
    rng.shuffle(tgroups)
    groups += tgroups  # C-to-CUDA first (a share of the budget), then torch2cuda once its builds are done
    jobs = a.jobs or (os.cpu_count() or 2 if a.no_gpu else 1)
    import threading
    built = threading.Event()
    if tgroups and not a.no_gpu:  # every torch mutant's extensions, in parallel, while the C-to-CUDA ones run
        def prebuild():
            t0 = time.monotonic()
            r = subprocess.run([a.bin, "tasks", "check-gpu", troot, "--build-only", "-j", str(os.cpu_count() or 4)],
                               capture_output=True, text=True)
            report["torch_prebuild"] = {"seconds": time.monotonic() - t0, "exit": r.returncode, "tail": r.stderr[-400:]}
            built.set()
        threading.Thread(target=prebuild, daemon=True).start()
    else:
        built.set()

    def one(group):
        spent = time.monotonic() - t_start
        limit = a.budget_s * (a.c2cuda_share if group[0]["kind"] == "c2cuda" else 1.0)
        if group[0]["kind"] == "torch2cuda":
            built.wait()
        if a.budget_s and spent > limit:
            for m in group:
                m["verdict"], m["message"] = "not_run", "the run's --budget-s was spent"
            return
        root = troot if group[0]["kind"] == "torch2cuda" else a.tasks
        reps, secs = run_eval(a.bin, root, group[0]["task"], [m["path"] for m in group], a.no_gpu, a.time_budget,
                              a.mode, a.eval_timeout)
        for m, r in zip(group, reps):
            m["verdict"], m["message"] = judged(r, a.no_gpu)
            m["eval_s"] = secs / len(group)
            m["eval_mode"] = r.get("mode")
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        list(ex.map(one, groups))
    rows = [{k: m.get(k) for k in ("kind", "class", "task", "impl", "site", "line", "verdict", "message", "eval_s", "path")}
            for m in items]
    for r in rows:
        r["impl"] = os.path.relpath(r["impl"], ROOT)
        if not a.workdir:
            r.pop("path")
    report["results"] = rows
    report["summary"] = summarize(rows)
    report["seconds"] = time.monotonic() - t_start
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    json.dump(report, open(a.json, "w"), indent=1)
    print(json.dumps(report["summary"], indent=1))
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def summarize(rows):
    """Per (kind, class): generated in the sample, stillborn, pending (no GPU verdict), detected, missed,
    detection rate over the decided ones; honest: ok, flagged (false positives), pending."""
    out = {}
    for r in rows:
        key = f"{r['kind']}/{r['class']}"
        s = out.setdefault(key, {"n": 0, "stillborn": 0, "pending": 0, "not_run": 0, "detected": 0, "missed": 0})
        s["n"] += 1
        v = r["verdict"]
        if v in ("pending", "not_run"):
            s[v] += 1
        elif r["class"] == "honest":
            s["detected" if v != "ok" else "missed"] += 1  # for honest rows: flagged / ok
        elif v in STILLBORN:
            s["stillborn"] += 1
        elif v in DETECTING or v.startswith("harness"):
            s["detected"] += v in DETECTING
            s.setdefault("harness_errors", 0)
            s["harness_errors"] += v.startswith("harness")
        else:
            s["missed"] += 1
    for key, s in out.items():
        decided = s["detected"] + s["missed"]
        if key.endswith("/honest"):
            s["false_positives"], s["ok"] = s.pop("detected"), s.pop("missed")
            s["false_positive_rate"] = s["false_positives"] / decided if decided else None
        else:
            s["detection_rate"] = s["detected"] / decided if decided else None
    mut = [s for k, s in out.items() if not k.endswith("/honest")]
    det = sum(s["detected"] for s in mut)
    dec = det + sum(s["missed"] for s in mut)
    out["all_mutants"] = {"decided": dec, "detected": det, "detection_rate": det / dec if dec else None}
    return out


if __name__ == "__main__":
    sys.exit(main())

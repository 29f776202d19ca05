#!/usr/bin/env python3
"""bench/rl_step_load.py without a GPU (ctest bench.rl_step_load_plan):
  1. --help lists the options;
  2. the --dry-run plan is the same for a seed and differs for another; it has P x G candidates per
     step over the same P tasks (the torch2cuda share of them as asked), class counts within one of
     the shares, duplicates that copy an earlier sample of their task and step, every other source
     new, and compile_error / wrong_answer samples made by the edits that say so;
  3. a tiny run against the real service (--cpu-test-mode, 2 C-to-CUDA prompts x 3 samples, 1 step)
     writes the report with its keys, and the verdicts follow the plan: compile_error samples are
     compile_error, impl samples ok (not final without a GPU), a duplicate's verdict and finality are
     its original's (a copy of a compile error is one too), and the candidates are the dry run's;
  4. one torch2cuda prompt is scored too, through the service or, where it rejects the task, through
     `cudaperf eval` (route eval, the task listed under rejected_by_service).

  python3 tests/check_rl_step_load.py BIN REPO_ROOT
"""
import json
import pathlib
import subprocess
import sys
import tempfile

binary, root = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
script = root / "bench" / "rl_step_load.py"
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL", what, flush=True)


def run(*args, timeout=300):
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, cwd=root, timeout=timeout)


def dry(*args):
    p = run("--dry-run", *args)
    check(p.returncode == 0, f"--dry-run {' '.join(args)} exits 0 (got {p.returncode}: {p.stderr[-400:]})")
    return json.loads(p.stdout) if p.returncode == 0 else None


# ---- 1. --help
p = run("--help")
check(p.returncode == 0, f"--help exits 0 (got {p.returncode})")
for opt in ("--bin", "--tasks-root", "--prompts", "--samples", "--steps", "--seed", "--json", "--cpu-test-mode",
            "--dry-run", "--workers-per-gpu", "--kernelbench-sample", "--deadline-s"):
    check(opt in p.stdout, f"--help lists {opt}")

# ---- 2. the plan
a, b, c = dry("--seed", "7"), dry("--seed", "7"), dry("--seed", "8")
if a and b and c:
    check(a == b, "the same seed gives the same plan")
    check([x["sha"] for x in a["candidates"]] != [x["sha"] for x in c["candidates"]], "another seed gives other sources")
    P, G, steps = 16, 8, 2
    check(len(a["tasks"]) == P and sum(t["kind"] == "torch2cuda" for t in a["tasks"]) == P // 2,
          f"{P} tasks, half of them torch2cuda (got {[t['kind'] for t in a['tasks']]})")
    shares = a["settings"]["class_shares"]
    tasks = [t["task"] for t in a["tasks"]]
    seen_sources = set()
    for s in range(1, steps + 1):
        cands = [x for x in a["candidates"] if x["step"] == s]
        check(len(cands) == P * G, f"step {s}: {P * G} candidates (got {len(cands)})")
        check(sorted({x["task"] for x in cands}) == sorted(tasks), f"step {s}: the same tasks as the plan's")
        for t in tasks:
            check(sum(x["task"] == t for x in cands) == G, f"step {s}: {G} samples of {t}")
        counts = {}
        for x in cands:
            counts[x["class"]] = counts.get(x["class"], 0) + 1
        for cls, share in shares.items():
            check(abs(counts.get(cls, 0) - share * P * G) <= 1, f"step {s}: {cls} count {counts.get(cls, 0)} ~ {share * P * G:.1f}")
        summary = a["plan"][s - 1]
        check(summary["by_class"] == counts, f"step {s}: the summary's class counts are the candidates' ({summary['by_class']})")
        by_pos = {(x["prompt"], x["sample"]): x for x in cands}
        for x in cands:
            if x["class"] == "duplicate":
                orig = by_pos.get(tuple(x["duplicate_of"]))
                check(orig is not None and orig["task"] == x["task"] and orig["sha"] == x["sha"]
                      and orig["sample"] < x["sample"], f"step {s}: duplicate {x['prompt']}.{x['sample']} copies an earlier sample")
            else:
                check((x["task"], x["sha"]) not in seen_sources, f"step {s}: {x['task']} sample {x['sample']} is a new source")
                seen_sources.add((x["task"], x["sha"]))
            if x["class"] == "compile_error":
                check(x["edit"].startswith("misspelt "), f"compile_error sample made by a misspelling ({x['edit']})")
            if x["class"] == "wrong_answer":
                check(x["edit"].split()[0] in ("off_by_one_index", "dropped_tail_guard", "dropped_tail_loop",
                                               "skipped_iteration", "constant_nudge"), f"wrong_answer by a mutation ({x['edit']})")
        check(summary["distinct_sources"] == P * G - counts.get("duplicate", 0), f"step {s}: distinct sources = candidates - duplicates")
    only_c = dry("--kinds", "c2cuda", "--prompts", "3", "--samples", "2", "--steps", "1")
    if only_c:
        check({x["kind"] for x in only_c["candidates"]} == {"c2cuda"} and len(only_c["candidates"]) == 6,
              "--kinds c2cuda --prompts 3 --samples 2: 6 C-to-CUDA candidates")

# ---- 3. a tiny run against the real service (CPU stages only)
TINY = ["--kinds", "c2cuda", "--prompts", "2", "--samples", "3", "--steps", "1", "--seed", "11",
        "--shares", "impl=0.34,wrong_answer=0.16,compile_error=0.34,duplicate=0.16"]
RUN = ["--bin", binary, "--cpu-test-mode", "--workers", "2", "--time-budget", "0.05", "--floor-compile-sample", "1"]
with tempfile.TemporaryDirectory() as tmp:
    plan = dry(*TINY)
    out = pathlib.Path(tmp, "report.json")
    p = run(*TINY, *RUN, "--json", str(out), "--workdir", str(pathlib.Path(tmp, "work")))
    check(p.returncode == 0, f"tiny run exits 0 (got {p.returncode}: {p.stderr[-1500:]})")
    rep = json.loads(out.read_text()) if out.is_file() else {}
    for key in ("settings", "tasks", "plan", "steps", "candidates", "throughput", "step_latency_s", "bars",
                "compile_probe", "rejected_by_service", "service"):
        check(key in rep, f"report has {key}")
    steps = rep.get("steps") or [{}]
    st = steps[0]
    for key in ("step_latency_s", "candidates_per_min", "per_kind", "verdicts", "verdicts_by_class", "time", "floor",
                "reward_latency_s", "gpu_kernel_s"):
        check(key in st, f"step report has {key}")
    check(len(steps) == 1 and st.get("complete") is True and st.get("done") == 6, "the step is complete with 6 rewards")
    check(sum((st.get("verdicts") or {}).values()) == 6, f"6 verdicts (got {st.get('verdicts')})")
    check((st.get("per_kind") or {}).get("c2cuda", {}).get("routes") == ["serve"], "C-to-CUDA went through the service")
    check(isinstance((st.get("floor") or {}).get("latency_over_floor"), (int, float)), "the floor ratio is a number")
    check(((st.get("time") or {}).get("serve") or {}).get("jobs") == (plan or {}).get("plan", [{}])[0].get("distinct_sources"),
          "the service's time covers every distinct job")
    check(isinstance((rep.get("throughput") or {}).get("cold", {}).get("c2cuda"), (int, float)), "cold C-to-CUDA candidates/min")
    rows = rep.get("candidates") or []
    if plan:
        check([(r["task"], r["class"], r["sha"]) for r in rows] ==
              [(r["task"], r["class"], r["sha"]) for r in plan["candidates"]], "the run's candidates are the dry run's")
    by_pos = {(r["prompt"], r["sample"]): r for r in rows}
    classes = {r["class"] for r in rows}
    check({"compile_error", "impl", "duplicate"} <= classes, f"the tiny plan has compile errors, impls and a duplicate ({classes})")
    for r in rows:
        what = f"{r['class']} sample {r['prompt']}.{r['sample']} ({r['edit']})"
        if r["class"] == "compile_error":
            check(r["verdict"] == "compile_error" and r["final"] is True, f"{what} is a final compile_error (got {r['verdict']})")
        elif r["class"] == "impl":
            check(r["verdict"] == "ok" and r["final"] is False, f"{what} is ok, not final without a GPU (got {r['verdict']})")
        elif r["class"] == "duplicate":  # a copy of any earlier sample, a compile error's too: checked below
            pass
        else:
            check(r["verdict"] not in ("compile_error", "not_done", "rejected"), f"{what} was scored (got {r['verdict']})")
        if r["class"] == "duplicate":
            orig = by_pos[tuple(r["duplicate_of"])]
            check((orig["verdict"], orig["final"]) == (r["verdict"], r["final"]), f"{what} has its original's verdict")
        check(isinstance(r["latency_s"], (int, float)) and r["latency_s"] > 0, f"{what} has a reward latency")

    # ---- 4. one torch2cuda prompt
    out2 = pathlib.Path(tmp, "torch.json")
    p = run("--kinds", "torch2cuda", "--prompts", "1", "--samples", "2", "--steps", "1", "--shares", "impl=1", *RUN,
            "--json", str(out2), "--workdir", str(pathlib.Path(tmp, "work2")))
    check(p.returncode == 0, f"torch run exits 0 (got {p.returncode}: {p.stderr[-1500:]})")
    rep2 = json.loads(out2.read_text()) if out2.is_file() else {}
    rows2 = rep2.get("candidates") or []
    check(len(rows2) == 2, "2 torch2cuda candidates")
    for r in rows2:
        check(r["route"] in ("serve", "eval") and r["latency_s"] is not None, f"torch candidate scored (route {r['route']})")
        if r["route"] == "eval":
            check(r["task"] in rep2.get("rejected_by_service", {}), "route eval only for a task the service rejected")
            check(r["verdict"] == "pending_gpu", f"eval --no-gpu leaves the verdict pending (got {r['verdict']})")

print("FAILED" if fails else "OK", f"({len(fails)} failures)")
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""bench/kernelbench_loop.py without torch or a GPU (ctest bench.kernelbench_loop_plan): --help, and
the --dry-run plan on data/tasks/torch2cuda/activations must list every impls/*.py with its task's
perf config globals and tolerance (read here independently with tomllib). A `torch` package that
raises on import is put first on the path, so the plan must not import torch, and a real run must
stop with a clear message and status 2.

  python3 tests/check_kernelbench_loop.py REPO_ROOT
"""
import json, os, pathlib, subprocess, sys, tempfile, tomllib

root = pathlib.Path(sys.argv[1]).resolve()
script = root / "bench" / "kernelbench_loop.py"
acts = root / "data" / "tasks" / "torch2cuda" / "activations"
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL", what)


with tempfile.TemporaryDirectory() as tmp:
    poison = pathlib.Path(tmp, "torch")
    poison.mkdir()
    (poison / "__init__.py").write_text('raise ImportError("torch is poisoned in this test")\n')
    env = dict(os.environ, PYTHONPATH=tmp + os.pathsep + os.environ.get("PYTHONPATH", ""))

    def run(*a):
        return subprocess.run([sys.executable, str(script), *a], capture_output=True, text=True, env=env,
                              cwd=root, timeout=120)

    # --help
    p = run("--help")
    check(p.returncode == 0, f"--help exits 0 (got {p.returncode}: {p.stderr[-300:]})")
    for opt in ("--tasks", "--candidates", "--out", "--jobs", "--timeout", "--dry-run"):
        check(opt in p.stdout, f"--help lists {opt}")

    # --dry-run on activations
    p = run("--tasks", str(acts), "--dry-run")
    check(p.returncode == 0, f"--dry-run exits 0 (got {p.returncode}: {p.stderr[-500:]})")
    try:
        plan = json.loads(p.stdout)
    except ValueError:
        plan = {"candidates": [], "tasks": []}
        check(False, f"--dry-run prints JSON (got {p.stdout[:300]!r})")
    got = {c["candidate"]: c for c in plan["candidates"]}

    want = {}
    for toml in sorted(acts.glob("*/task.toml")):
        t = tomllib.loads(toml.read_text())
        perf = [c for c in t["configs"] if c.get("perf") is True or str(c.get("name", "")).startswith("perf")]
        check(len(perf) == 1, f"{toml}: exactly one perf config")
        g = {k: v for k, v in perf[0].items() if k not in ("name", "perf")}
        impls = sorted(toml.parent.glob("impls/*.py"))
        check(len(impls) >= 2, f"{toml.parent.name}: at least two impls")
        for f in impls:
            want[str(f.resolve())] = (t["id"], f.stem, perf[0]["name"], g, t["tolerance"])
    check(len(want) >= 20, f"activations has impls ({len(want)})")
    check(set(got) == set(want), f"plan lists exactly the impls: missing {sorted(set(want) - set(got))}, "
                                 f"extra {sorted(set(got) - set(want))}")
    for path, (tid, stem, cname, g, tol) in want.items():
        c = got.get(path)
        if c is None:
            continue
        check(c["task"] == tid and c["impl"] == stem, f"{path}: task/impl {c['task']}/{c['impl']}")
        check(c["config"] == cname and c["globals"] == g, f"{path}: perf globals {c['config']} {c['globals']} != {g}")
        check(c["tolerance"] == {"rtol": float(tol["rtol"]), "atol": float(tol["atol"])}, f"{path}: tolerance {c['tolerance']}")
        check(pathlib.Path(c["reference"]) == pathlib.Path(path).parent.parent / "reference.py", f"{path}: reference")
    check(all(not t["unknown_globals"] for t in plan["tasks"]), "every perf global exists in its reference.py")
    s = plan.get("settings", {})
    check((s.get("trials"), s.get("timed_runs"), s.get("jobs"), s.get("l2_flush")) == (5, 100, 1, False),
          f"default settings 5 trials, 100 timed runs, 1 job, no L2 flush: {s}")

    # one candidate file resolves its task; --config picks another config
    one = acts / "relu" / "impls" / "naive.py"
    p = run("--candidates", str(one), "--config", "tiny", "--dry-run")
    ok = p.returncode == 0
    c = json.loads(p.stdout)["candidates"] if ok else []
    tiny = [x for x in tomllib.loads((acts / "relu" / "task.toml").read_text())["configs"] if x["name"] == "tiny"][0]
    check(ok and len(c) == 1 and c[0]["task"] == "torch2cuda/activations/relu" and c[0]["config"] == "tiny"
          and c[0]["globals"] == {k: v for k, v in tiny.items() if k != "name"}, f"--candidates FILE --config tiny: {p.stdout[:400]} {p.stderr[-300:]}")

    # usage errors: status 2 with a message
    p = run("--tasks", str(root / "no-such-folder"), "--dry-run")
    check(p.returncode == 2 and "not a folder" in p.stderr, f"missing folder: status 2 ({p.returncode}, {p.stderr[-200:]})")
    p = run("--dry-run")
    check(p.returncode == 2, "no --tasks/--candidates: status 2")

    # a real run without torch: clear message, status 2, nothing written
    out = pathlib.Path(tmp, "kb.json")
    p = run("--candidates", str(one), "--out", str(out))
    check(p.returncode == 2 and "torch is not importable" in p.stderr and not out.exists(),
          f"no torch: status 2 and a clear message ({p.returncode}, {p.stderr[-300:]})")

print("kernelbench loop plan:", "ok" if not fails else f"{len(fails)} failing")
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""rl/run.py at toy scale on the CPU against the real service (--cpu-test-mode): every step runs
(data from `cudaperf export`, tokenizer, model, SFT, the service warmed, GRPO for two reward variants), the per-step
metrics have their fields, a second run resumes (does nothing), and rl/plot.py draws the curves.

    check_rl_pipeline.py CUDAPERF_BINARY REPO_ROOT
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

BIN, REPO = sys.argv[1], Path(sys.argv[2]).resolve()
out = Path(tempfile.mkdtemp(prefix="cudaperf-rl-toy-")) / "run"
cmd = [sys.executable, str(REPO / "rl/run.py"), str(out), "--cudaperf", BIN, "--preset", "toy", "--cpu",
       "--variants", "speed,ranker", "--time-budget", "0.05"]
first = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
assert first.returncode == 0, first.stderr[-4000:]
state = json.loads((out / "state.json").read_text())["done"]
want = ["data", "tokenizer", "model", "sft-1", "warm-service", "grpo-speed-1", "grpo-speed-2", "grpo-ranker-1", "grpo-ranker-2"]
assert list(state) == want, list(state)
for name in want:
    assert f"[{name}]" in first.stderr, f"no summary line for {name}"
assert state["data"]["heldout"] >= 1 and state["data"]["train"] >= 1, state["data"]
assert state["model"]["parameters"] > 0 and state["sft-1"]["steps"] == 4, state
# one known implementation per task scored before the first variant (its one-time task preparation)
warm = state["warm-service"]
assert warm["tasks"] == 4, warm  # the toy preset: 3 training tasks and 1 held-out
assert sum(warm["verdicts"].values()) == warm["tasks"] and "no_code" not in warm["verdicts"], warm
# every implementation that is not ok is named with its message (CPU test mode: none is ok)
assert len(warm["not_ok"]) == warm["tasks"] - warm["verdicts"].get("ok", 0), warm
assert all(set(x) == {"task", "verdict", "message"} and x["verdict"] != "ok" for x in warm["not_ok"]), warm
keys = {"n", "compile_rate", "correct_rate", "speedup_mean", "speedup_geomean", "structure_mean", "reward_mean",
        "verdicts", "final_rate", "hack_messages"}
for variant in ("speed", "ranker"):
    rows = [json.loads(x) for x in (out / f"metrics-{variant}.jsonl").read_text().splitlines()]
    train = [r for r in rows if r["split"] == "train"]
    held = [r for r in rows if r["split"] == "heldout"]
    assert [r["step"] for r in train] == [1, 2] and len(held) == 2, rows
    for r in train + held:
        assert keys <= set(r) and r["n"] > 0 and sum(r["verdicts"].values()) == r["n"], r
        assert len(r["hack_messages"]) == r["verdicts"].get("hack_suspected", 0), r
        evaluated = r["n"] - r["verdicts"].get("no_code", 0)
        assert evaluated == 0 or r["final_rate"] < 1.0, r  # CPU test mode: no service result is final
    print(f"ok: {variant}: {len(train)} GRPO steps, verdicts {train[-1]['verdicts']}, held-out {held[-1]['verdicts']}")
again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
assert again.returncode == 0 and not any(f"[{n}]" in again.stderr for n in want), again.stderr[-2000:]
print("ok: a second run resumes: every step already done")
png = subprocess.run([sys.executable, str(REPO / "rl/plot.py"), str(out)], capture_output=True, text=True, check=True)
assert Path(png.stdout.strip()).stat().st_size > 10000, png
print("ok: rl/plot.py drew", png.stdout.strip())
print("3 passed, 0 failed")

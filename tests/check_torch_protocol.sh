#!/usr/bin/env bash
# The supervisor's handling of the torch worker protocol, with a fake worker (no torch, no GPU):
# each scenario must give its verdict (and message fragment).
set -uo pipefail
bin=$1 root=$2 here=$(cd "$(dirname "$0")" && pwd)
export CUDAPERF_TORCH_TEST_MODE=1 CUDAPERF_TORCH_WORKER="$here/torch_fake_worker.py" CUDAPERF_PYTHON=python3
cand="$here/data/torch_cpu/good.py"
status=0
check() {  # scenario verdict needle
  out=$(CUDAPERF_TEST_SCENARIO=$1 "$bin" eval --root "$root" --task torch2cuda/elementwise/leaky_relu --candidate "$cand" --json 2>&1)
  got=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["verdict"])' <<<"$out" 2>/dev/null)
  if [ "$got" != "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
    echo "FAIL $1: expected $2 with '$3', got '$got'"; echo "$out" | head -8; status=1
  else
    echo "ok   $1 -> $got"
  fi
}
check good ok '"speedup_vs_eager": 4'
# the workers' stage breakdowns reach the report: the reference's (ready) and the baselines' (per kind)
check good ok '"reference_import_s": 0.25'
check good ok '"baseline_compile_timed_s": 0.125'
check good ok '"candidate_worker_setup_s": 0.5'
check wrong wrong_answer "fake mismatch"
check hang timeout "per-call watchdog"
check crash runtime_error "crashed"
check exit_early hack_suspected "without finishing"
check duplicate hack_suspected "rule result_channel"
check oversized hack_suspected "result channel"
check unknown_status hack_suspected "rule result_channel"
check not_a_number hack_suspected "rule result_channel"
# issue 24: a measurement written by the candidate is never taken (only the reference measures)
check forged_result hack_suspected "does not come from a candidate worker"
check garbage hack_suspected "not a harness message"
check too_fast hack_suspected "rule roofline"
# the task's defect, not the candidate's (its shapes change under the secret seed): no verdict, no tier
check reference_fatal task_error "task error in torch2cuda/elementwise/leaky_relu"
check task_error task_error "config 'perf': timed call 0: get_inputs() returned other shapes"
check task_error task_error '"tier": null'
# several candidates in one run (eval --candidate A --candidate B): one JSON report each, in order
out=$(CUDAPERF_TEST_SCENARIO=by_file "$bin" eval --root "$root" --task torch2cuda/elementwise/leaky_relu \
      --candidate "$here/data/torch_cpu/good.py" --candidate "$here/data/torch_cpu/wrong.py" --candidate "$cand" --json 2>&1)
rc=$?
got=$(python3 -c 'import json,sys; print(" ".join(r["verdict"] for r in json.loads(sys.stdin.read())))' <<<"$out" 2>/dev/null)
if [ "$got" != "ok wrong_answer ok" ] || [ $rc -ne 1 ]; then echo "FAIL batch: got '$got' rc $rc"; echo "$out" | head -8; status=1
else echo "ok   batch -> $got (exit $rc)"; fi
# workers initialised ahead in batches of CUDAPERF_TORCH_INIT_AHEAD: "init" to a whole batch at once,
# then "go" one at a time; no worker may get "init" while another one that got "go" still runs (the
# fake workers log each step they read, with CLOCK_MONOTONIC, to CUDAPERF_TEST_EVENT_LOG)
ev=$(mktemp -d)
d=$here/data/torch_cpu
batch_run() {  # name, then the eval arguments after the task
  CUDAPERF_TEST_SCENARIO=by_file CUDAPERF_TEST_EVENT_LOG="$ev/$1.log" CUDAPERF_TEST_INIT_S=0.2 CUDAPERF_TEST_RUN_S=0.1 \
    "$bin" eval --root "$root" --task torch2cuda/elementwise/leaky_relu "${@:2}" --json > "$ev/$1.json" 2>&1
}
CUDAPERF_TORCH_INIT_AHEAD=2 batch_run ahead --candidate "$d/good.py" --candidate "$d/wrong.py" --candidate "$d/good.py" \
  --candidate "$d/wrong.py" --candidate "$d/good.py"
CUDAPERF_TORCH_INIT_AHEAD=3 CUDAPERF_TEST_INIT_DIES_ONCE=wrong batch_run dies_once \
  --candidate "$d/good.py" --candidate "$d/wrong.py" --candidate "$d/good.py"
CUDAPERF_TORCH_INIT_AHEAD=3 CUDAPERF_TEST_INIT_DIES=wrong batch_run dies \
  --candidate "$d/good.py" --candidate "$d/wrong.py" --candidate "$d/good.py"
python3 - "$ev" <<'PY' || { echo "FAIL initialised ahead"; head -c 2000 "$ev"/*.json; cat "$ev"/*.log; status=1; }
import json, sys
ev = sys.argv[1]


def run(name):
    reps = json.load(open(f"{ev}/{name}.json"))
    steps = sorted((line.split() for line in open(f"{ev}/{name}.log")), key=lambda s: int(s[0]))
    # The invariant: no "init" read by any worker between another worker's "go" and its exit.
    runs = {}  # pid -> [go, exit]
    for t, pid, _, step in steps:
        if step in ("go", "exit"):
            runs.setdefault(pid, [None, float("inf")])[step == "exit"] = int(t)
    for t, pid, stem, step in steps:
        for other, (g, e) in runs.items():
            assert step != "init" or other == pid or not g < int(t) < e, (name, "init inside a run", pid, other)
    return reps, steps


reps, steps = run("ahead")
assert [r["verdict"] for r in reps] == ["ok", "wrong_answer", "ok", "wrong_answer", "ok"], [r["verdict"] for r in reps]
assert [r["stages"]["candidate_init_batch"] for r in reps] == [2, 2, 2, 2, 1], [r["stages"] for r in reps]
assert all(r["stages"]["candidate_init_s"] >= 0.2 and "candidate_init_retry" not in r["stages"] for r in reps)
assert [s[3] for s in steps].count("init") == 5 and [s[3] for s in steps].count("exit") == 5, steps
# a batch's workers all get "init" before the first of them gets "go"
order = [s[3] for s in steps if s[3] in ("init", "go")]
assert order == ["init", "init", "go", "go", "init", "init", "go", "go", "init", "go"], order
print("ok   initialised ahead: batches", [r["stages"]["candidate_init_batch"] for r in reps], "no init during a run")

reps, steps = run("dies_once")  # the worker died before "go": once more, fresh and alone; judged as usual
assert [r["verdict"] for r in reps] == ["ok", "wrong_answer", "ok"], [r["verdict"] for r in reps]
assert [r["stages"]["candidate_init_batch"] for r in reps] == [3, 1, 3], [r["stages"] for r in reps]
assert [r["stages"].get("candidate_init_retry", 0) for r in reps] == [0, 1, 0]
print("ok   a worker that dies while initialising is replaced once:", [r["verdict"] for r in reps])

reps, steps = run("dies")  # it dies again: never a positive verdict, the other candidates unharmed
assert [r["verdict"] for r in reps] == ["ok", "runtime_error", "ok"], [r["verdict"] for r in reps]
assert "did not initialise" in reps[1]["message"] and "candidate_s" not in reps[1]["stages"], reps[1]
print("ok   a worker that never initialises:", reps[1]["verdict"])
PY
rm -rf "$ev"
# check-gpu over several tasks (CPU test mode): a marker per finished task in --resume-dir, a second
# run skips them; every task after the first gets its reference from the spare started ahead.
rd=$(mktemp -d); trap 'rm -rf "$rd"' EXIT
CUDAPERF_TEST_SCENARIO=good "$bin" tasks check-gpu "$root" --no-warm --resume-dir "$rd/done" > "$rd/run1.txt" 2>&1
python3 - "$rd/done" <<'PY' || { echo "FAIL check-gpu resume/spare"; cat "$rd/run1.txt" | tail -5; status=1; }
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + "/*.json"))
assert len(files) == 3, files
spare = []
for f in files:
    t = json.load(open(f))["torch_tasks"][0]
    assert t["results"] and all(r["verdict"] == "ok" for r in t["results"]), (f, [r["verdict"] for r in t["results"]])
    spare.append(t["results"][0]["stages"]["reference_from_spare"])
assert spare == [0, 1, 1], spare  # the first task's reference started cold, the others from the spare
print("ok   check-gpu: 3 task markers, references from the spare", spare)
PY
CUDAPERF_TEST_SCENARIO=good "$bin" tasks check-gpu "$root" --no-warm --resume-dir "$rd/done" > "$rd/run2.txt" 2>&1
if ! grep -q "3 task(s) already done" "$rd/run2.txt" || ! grep -q "0 torch2cuda task(s)" "$rd/run2.txt"; then
  echo "FAIL check-gpu resume: the second run did not skip the finished tasks"; tail -5 "$rd/run2.txt"; status=1
else echo "ok   check-gpu resume: finished tasks skipped"; fi
# a spare that dies once its role came: the run starts a fresh reference and nothing is lost
CUDAPERF_TEST_SCENARIO=spare_dies "$bin" tasks check-gpu "$root" --no-warm --resume-dir "$rd/dies" > "$rd/run4.txt" 2>&1
python3 - "$rd/dies" <<'PY' || { echo "FAIL check-gpu with a dying spare"; tail -5 "$rd/run4.txt"; status=1; }
import glob, json, sys
rows = [json.load(open(f))["torch_tasks"][0]["results"] for f in sorted(glob.glob(sys.argv[1] + "/*.json"))]
assert len(rows) == 3 and all(r["verdict"] == "ok" for rs in rows for r in rs), rows
assert [rs[0]["stages"]["reference_from_spare"] for rs in rows] == [0, 0, 0]
print("ok   check-gpu: a dying spare is replaced by a fresh reference")
PY
CUDAPERF_TEST_SCENARIO=good "$bin" tasks check-gpu "$root" --no-warm --deadline-epoch 1 --json "$rd/run3.json" > "$rd/run3.txt" 2>&1
rc=$?
if [ $rc -ne 4 ] || ! grep -q "deadline: stopped before" "$rd/run3.txt" ||
   ! python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["torch_not_started"]) == 3' "$rd/run3.json"; then
  echo "FAIL check-gpu deadline (exit $rc)"; tail -5 "$rd/run3.txt"; status=1
else echo "ok   check-gpu deadline: 3 tasks not started, exit 4"; fi
exit $status

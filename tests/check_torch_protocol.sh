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
check duplicate hack_suspected "reported twice"
check oversized hack_suspected "result channel"
check unknown_status hack_suspected "unknown status"
check not_a_number hack_suspected "is not a number"
check garbage hack_suspected "not a harness message"
check too_fast hack_suspected "rule roofline"
# several candidates in one run (eval --candidate A --candidate B): one JSON report each, in order
out=$(CUDAPERF_TEST_SCENARIO=by_file "$bin" eval --root "$root" --task torch2cuda/elementwise/leaky_relu \
      --candidate "$here/data/torch_cpu/good.py" --candidate "$here/data/torch_cpu/wrong.py" --candidate "$cand" --json 2>&1)
rc=$?
got=$(python3 -c 'import json,sys; print(" ".join(r["verdict"] for r in json.loads(sys.stdin.read())))' <<<"$out" 2>/dev/null)
if [ "$got" != "ok wrong_answer ok" ] || [ $rc -ne 1 ]; then echo "FAIL batch: got '$got' rc $rc"; echo "$out" | head -8; status=1
else echo "ok   batch -> $got (exit $rc)"; fi
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

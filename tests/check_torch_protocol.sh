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
check good ok '"candidate_setup_s": 0.5'
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
exit $status

#!/usr/bin/env bash
# `cudaperf eval` exit codes: a dataset impl gives 0 with a GPU and 3 (GPU stages skipped) without;
# an unknown task gives 2; a candidate that does not compile gives 1 with verdict compile_error; a task
# whose reference does not build gives 4 (task_error).
set -uo pipefail
bin=$1 root=$2
status=0
"$bin" eval --root "$root" --task elementwise/saxpy --candidate "$root/c2cuda/elementwise/saxpy/impls/vectorized.cu" --json > /tmp/eval_cli.$$ 2>&1
rc=$?
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then want=0; else want=3; fi
[ $rc -eq $want ] || { echo "FAIL: dataset impl exit $rc, want $want"; cat /tmp/eval_cli.$$; status=1; }
grep -q '"complete": '"$([ $want = 0 ] && echo true || echo false)" /tmp/eval_cli.$$ || { echo "FAIL: complete flag"; status=1; }
"$bin" eval --root "$root" --task no/such_task --candidate "$0" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown task should exit 2"; status=1; }
"$bin" eval --root "$root" --task elementwise/saxpy --candidate "$0" --time-budget 0 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --time-budget 0 should exit 2"; status=1; }
# several candidates in one run: torch2cuda only; a C-to-CUDA task says what it takes
v=$root/c2cuda/elementwise/saxpy/impls/vectorized.cu
out=$("$bin" eval --root "$root" --task elementwise/saxpy --candidate "$v" --candidate "$v" 2>&1)
[ $? -eq 2 ] && grep -q "a C-to-CUDA task takes one --candidate per run" <<<"$out" ||
  { echo "FAIL: two candidates on a C-to-CUDA task should exit 2 and say why"; echo "$out"; status=1; }
"$bin" eval --no-such-option >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown option should exit 2"; status=1; }
"$bin" eval --help >/dev/null 2>&1
[ $? -eq 0 ] || { echo "FAIL: --help should exit 0"; status=1; }
printf 'this is not CUDA\n' > /tmp/eval_cli_bad.$$.cu
out=$("$bin" eval --root "$root" --task elementwise/saxpy --candidate /tmp/eval_cli_bad.$$.cu --json 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q '"verdict": "compile_error"' <<<"$out" || { echo "FAIL: compile error case (exit $rc)"; echo "$out"; status=1; }
grep -q 'this is not CUDA\|error' <<<"$out" || { echo "FAIL: diagnostics missing"; status=1; }
# peaks: measured (0) with a GPU; exit 3 and a reason without one
"$bin" peaks --json > /tmp/eval_cli_peaks.$$ 2>&1
rc=$?
if [ $want = 0 ]; then
  [ $rc -eq 0 ] && grep -q copy_bytes_per_s /tmp/eval_cli_peaks.$$ || { echo "FAIL: peaks exit $rc"; cat /tmp/eval_cli_peaks.$$; status=1; }
else
  [ $rc -eq 3 ] && grep -q "nothing measured" /tmp/eval_cli_peaks.$$ || { echo "FAIL: peaks without GPU exit $rc"; cat /tmp/eval_cli_peaks.$$; status=1; }
fi
# a task whose reference does not build: the task's error (verdict task_error, no tier, exit 4), never the
# candidate's runtime_error (nothing the candidate does reaches the reference's build)
broken=$(mktemp -d)
mkdir -p "$broken/c2cuda/elementwise" && cp -r "$root/c2cuda/elementwise/saxpy" "$broken/c2cuda/elementwise/"
printf 'this is not C\n' >> "$broken/c2cuda/elementwise/saxpy/reference.c"
out=$("$bin" eval --root "$broken" --task elementwise/saxpy --candidate "$v" --json 2>&1)
rc=$?
got=$(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["verdict"], j["tier"])' <<<"$out" 2>/dev/null)
[ $rc -eq 4 ] && [ "$got" = "task_error None" ] && grep -q "reference does not build" <<<"$out" ||
  { echo "FAIL: a reference that does not build should be task_error, exit 4 (got '$got', exit $rc)"; echo "$out" | head; status=1; }
rm -rf "$broken"
rm -f /tmp/eval_cli.$$ /tmp/eval_cli_bad.$$.cu /tmp/eval_cli_peaks.$$
exit $status

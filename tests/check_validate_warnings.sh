#!/usr/bin/env bash
# `tasks validate` advice (docs/task-format.md): a valid task with a loose tolerance and a tiny perf
# config passes, with a WARN line for each; a valid dataset task without them has none.
set -uo pipefail
bin=$1 dir=$2
out=$("$bin" tasks validate "$dir" 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: validate exited $rc"; echo "$out"; exit 1; }
for want in "roofline floor is" "tolerance rtol = 0.2 is above 0.1"; do
  grep "^WARN fixture/loose_small" <<<"$out" | grep -qF -- "$want" || { echo "FAIL: no warning: $want"; echo "$out"; exit 1; }
done
[ "$(grep -c '^WARN' <<<"$out")" -eq 2 ] || { echo "FAIL: expected exactly 2 warnings"; echo "$out"; exit 1; }
echo "validate warnings: ok"

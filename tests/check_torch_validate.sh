#!/usr/bin/env bash
# torch2cuda validation: the fixture tasks pass (ending "validate: OK", with or without torch), and
# each malformed task under tests/data/torch_tasks_bad/<mistake>/ fails with its expected message.
set -uo pipefail
bin=$1 data=$2
status=0
out=$("$bin" tasks validate "$data/torch_tasks" 2>&1)
tail -1 <<<"$out" | grep -q "validate: OK" || { echo "FAIL: fixtures do not validate"; echo "$out" | tail -30; status=1; }
if ! "${CUDAPERF_PYTHON:-python3}" -c "import torch" 2>/dev/null; then
  grep -q "null-solution battery: SKIPPED (not passed)" <<<"$out" || { echo "FAIL: a skipped battery must say so"; status=1; }
fi
"$bin" tasks list --root "$data/torch_tasks" | grep -q "torch2cuda/linear/affine_relu" || { echo "FAIL: list"; status=1; }
"$bin" tasks show torch2cuda/reduction/row_sum --root "$data/torch_tasks" | grep -q "block_per_row.py" || { echo "FAIL: show"; status=1; }
for d in "$data"/torch_tasks_bad/*/; do
  want=$(cat "$d/expected.txt")
  out=$("$bin" tasks validate "$d" --no-compile 2>&1)
  rc=$?
  if [ $rc -ne 1 ] || ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL $(basename "$d"): exit $rc, expected message: $want"; echo "$out" | head -20; status=1
  else
    echo "ok   $(basename "$d")"
  fi
done
exit $status

#!/usr/bin/env bash
# torch2cuda validation: the fixture tasks pass (ending "validate: OK", with or without torch), and
# each malformed task under tests/data/torch_tasks_bad/<mistake>/ fails with its expected message.
set -uo pipefail
bin=$1 data=$2
status=0
out=$("$bin" tasks validate "$data/torch_tasks" 2>&1)
tail -1 <<<"$out" | grep -q "validate: OK" || { echo "FAIL: fixtures do not validate"; echo "$out" | tail -30; status=1; }
out2=$("$bin" tasks validate "$data/torch_layout_tasks" 2>&1)  # the red-team rows' data-movement fixture
tail -1 <<<"$out2" | grep -q "validate: OK" || { echo "FAIL: torch_layout_tasks do not validate"; echo "$out2" | tail -30; status=1; }
if ! "${CUDAPERF_PYTHON:-python3}" -c "import torch" 2>/dev/null; then
  grep -q "null-solution battery: SKIPPED (not passed)" <<<"$out" || { echo "FAIL: a skipped battery must say so"; status=1; }
fi
# one torch2cuda task folder given alone is validated as torch (it was loaded as a C task)
out3=$("$bin" tasks validate "$data/torch_tasks/torch2cuda/reduction/row_sum" 2>&1)
tail -1 <<<"$out3" | grep -q "validate: OK" && ! grep -q "not supported by this loader" <<<"$out3" ||
  { echo "FAIL: a single torch task folder"; echo "$out3" | tail -10; status=1; }
"$bin" tasks list --root "$data/torch_tasks" | grep -q "torch2cuda/linear/affine_relu" || { echo "FAIL: list"; status=1; }
"$bin" tasks show torch2cuda/reduction/row_sum --root "$data/torch_tasks" | grep -q "block_per_row.py" || { echo "FAIL: show"; status=1; }
# a candidate that never ran has no verdict: eval --no-gpu --json says pending_gpu, no tier, exit 3
out=$("$bin" eval --root "$data/torch_tasks" --task torch2cuda/elementwise/leaky_relu --candidate "$data/torch_tasks/torch2cuda/elementwise/leaky_relu/impls/naive.py" --no-gpu --json 2>&1)
rc=$?
got=$(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["verdict"], j["tier"], j["complete"], j["mode"])' <<<"$out" 2>/dev/null)
[ "$got" = "pending_gpu None False strict" ] && [ $rc -eq 3 ] || { echo "FAIL: --no-gpu: got '$got' exit $rc"; echo "$out" | head; status=1; }
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

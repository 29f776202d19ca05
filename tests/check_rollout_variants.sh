#!/usr/bin/env bash
# bench/rollout_variants.py: N distinct candidates of a task (the many-candidates-per-task regime of
# the throughput comparison). Each must pass validation and the static guards, and every one must be
# a different build (distinct extension cache keys), else the "cold" comparison would hit the cache.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for task in activations/relu mlp/mnist_mlp_sgd_step; do
  python3 "$src/bench/rollout_variants.py" "$src/data/tasks/torch2cuda/$task" --n 5 --out "$tmp" > /dev/null || { echo "FAIL $task: generator"; status=1; continue; }
  d=$tmp/torch2cuda/$task
  n=$(ls "$d"/impls/*.py | wc -l)
  [ "$n" = 5 ] || { echo "FAIL $task: $n candidates, expected 5"; status=1; }
  keys=$(for f in "$d"/impls/*.py; do
    PYTHONPATH="$src/python" python3 -m cudaperf.torch_static candidate "$f" --salt test |
      python3 -c 'import json,sys; d=json.load(sys.stdin); assert not d["findings"], d["findings"]; print(",".join(e["key"] for e in d["extensions"]))' || echo "static-check-failed"
  done)
  grep -q "static-check-failed" <<<"$keys" && { echo "FAIL $task: a variant fails the static guards"; status=1; }
  distinct=$(sort -u <<<"$keys" | wc -l)
  [ "$distinct" = 5 ] || { echo "FAIL $task: $distinct distinct extension keys of 5 candidates"; echo "$keys"; status=1; }
done
out=$("$bin" tasks validate "$tmp" 2>&1)
tail -1 <<<"$out" | grep -q "validate: OK" || { echo "FAIL: validate"; echo "$out" | head -20; status=1; }
[ $status = 0 ] && echo "rollout variants: ok"
exit $status

#!/usr/bin/env bash
# CI's share of the generated tier's validation (docs/generators.md): the first task of every family
# (a deterministic stratified sample) through `cudaperf tasks validate`. Every task was validated
# once when it was generated (manifest.json records the result); this keeps the gates and the
# generators in step without 1,050 tasks' compiles in every CI run.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen="$src/data/generators/gen.py"
cp "$src/data/generators/manifest.json" "$tmp/manifest.json"
python3 "$gen" generate --out "$tmp/tree" --manifest "$tmp/manifest.json" > /dev/null || exit 1
n=0
for id in $(python3 "$gen" sample --fraction 0 --manifest "$tmp/manifest.json"); do
  mkdir -p "$tmp/sample/c2cuda/$(dirname "$id")"
  cp -r "$tmp/tree/c2cuda/$id" "$tmp/sample/c2cuda/$id"
  n=$((n + 1))
done
echo "validating $n generated tasks (one per family)"
"$bin" tasks validate "$tmp/sample" -j "${CUDAPERF_TEST_JOBS:-2}" --json "$tmp/v.json" > "$tmp/out.txt"
rc=$?
grep -E "^(FAIL|  - )" "$tmp/out.txt" | head -40
tail -4 "$tmp/out.txt"
python3 - "$tmp/v.json" "$n" <<'PY' || rc=1
import json, sys
j = json.load(open(sys.argv[1]))
ok = [t for t in j["tasks"] if not t["problems"]]
assert len(j["tasks"]) == int(sys.argv[2]), (len(j["tasks"]), sys.argv[2])
assert len(ok) == len(j["tasks"]), [t["id"] for t in j["tasks"] if t["problems"]]
assert all(t["impls"] >= 3 for t in j["tasks"])
print(f"generated sample: {len(ok)} tasks valid")
PY
exit $rc

#!/usr/bin/env bash
# CI's share of the generated tier's validation (docs/generators.md): the first task of every family
# (a deterministic stratified sample) through `cudaperf tasks validate`. Every task was validated
# once when it was generated (manifest.json records the result); this keeps the gates and the
# generators in step without 1,490 tasks' compiles in every CI run.
#   check_generated_sample.sh CUDAPERF SRC [VENV]
# c2cuda: one task per family (35). torch2cuda: one task per family (22): static guards of both impls,
# the reference at its small configs and the null battery with the CPU torch of VENV (tests/rl_env.sh,
# requirements/rl-engines.txt; CUDAPERF_PYTHON wins when set); without torch the battery is SKIPPED
# and only the static checks run (said in the output).
set -uo pipefail
bin=$1 src=$2 venv=${3:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen="$src/data/generators/gen.py"
cp "$src/data/generators/manifest.json" "$tmp/manifest.json"
python3 "$gen" generate --out "$tmp/tree" --manifest "$tmp/manifest.json" > /dev/null || exit 1
n=0
for id in $(python3 "$gen" sample --fraction 0 --kind c2cuda --manifest "$tmp/manifest.json"); do
  mkdir -p "$tmp/sample/c2cuda/$(dirname "$id")"
  cp -r "$tmp/tree/c2cuda/$id" "$tmp/sample/c2cuda/$id"
  n=$((n + 1))
done
nt=0
for id in $(python3 "$gen" sample --fraction 0 --kind torch2cuda --manifest "$tmp/manifest.json"); do
  mkdir -p "$tmp/tsample/$(dirname "$id")"
  cp -r "$tmp/tree/$id" "$tmp/tsample/$id"
  nt=$((nt + 1))
done
echo "validating $n generated c2cuda tasks (one per family)"
start=$(date +%s)
"$bin" tasks validate "$tmp/sample" -j "${CUDAPERF_TEST_JOBS:-2}" --json "$tmp/v.json" > "$tmp/out.txt"
rc=$?
grep -E "^(FAIL|  - )" "$tmp/out.txt" | head -40
tail -4 "$tmp/out.txt"
echo "c2cuda sample: $(( $(date +%s) - start )) s"
py=${CUDAPERF_PYTHON:-python3}
if [ -n "$venv" ] && [ -z "${CUDAPERF_PYTHON:-}" ]; then  # CI: the pinned CPU torch (tests/rl_env.sh installs it once)
  bash "$(dirname "$0")/rl_env.sh" "$venv" && py=$venv/bin/python || echo "WARNING: cannot install $venv: the torch battery is skipped"
fi
want_battery=0
"$py" -c "import torch" 2>/dev/null && want_battery=1
echo "validating $nt generated torch2cuda tasks (one per family; torch battery: $([ $want_battery = 1 ] && echo "$py" || echo SKIPPED, no torch))"
start=$(date +%s)
CUDAPERF_PYTHON=$py "$bin" tasks validate "$tmp/tsample" -j "${CUDAPERF_TEST_JOBS:-2}" --json "$tmp/t.json" > "$tmp/tout.txt"
trc=$?
grep -E "^(FAIL|  - )" "$tmp/tout.txt" | head -40
tail -3 "$tmp/tout.txt"
echo "torch2cuda sample: $(( $(date +%s) - start )) s"
[ $trc -eq 0 ] || rc=1
python3 - "$tmp/v.json" "$n" "$tmp/t.json" "$nt" "$want_battery" <<'PY' || rc=1
import json, sys
j = json.load(open(sys.argv[1]))
ok = [t for t in j["tasks"] if not t["problems"]]
assert len(j["tasks"]) == int(sys.argv[2]), (len(j["tasks"]), sys.argv[2])
assert len(ok) == len(j["tasks"]), [t["id"] for t in j["tasks"] if t["problems"]]
assert all(t["impls"] >= 3 for t in j["tasks"])
print(f"generated c2cuda sample: {len(ok)} tasks valid")
t = json.load(open(sys.argv[3]))
tt = [x for x in t["tasks"] if x.get("kind") == "torch2cuda"]
assert len(tt) == int(sys.argv[4]) >= 20, (len(tt), sys.argv[4])
assert all(not x["problems"] for x in tt), [(x["id"], x["problems"][:2]) for x in tt if x["problems"]]
assert all(x["impls"] >= 2 for x in tt)
if sys.argv[5] == "1":  # with torch: every null rejected by every task
    assert all(x["battery"] == "run" for x in tt), [(x["id"], x["battery"]) for x in tt if x["battery"] != "run"]
    weak = [x["id"] for x in tt if any(v["configs_rejected"] == 0 for v in x["nulls"].values())]
    assert not weak, weak
print(f"generated torch2cuda sample: {len(tt)} tasks valid")
PY
exit $rc

#!/usr/bin/env bash
# The ranker on the committed records (no GPU): held-out-by-category accuracy must beat every
# single-feature heuristic and stay above 0.80 (the issue's target is 0.85); a model trains,
# saves, loads and scores a task's implementations and a candidate.
set -uo pipefail
bin=$1 root=$2 records=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" rank eval --records "$records" --root "$root" --json "$tmp/eval.json" > "$tmp/eval.txt" 2> "$tmp/eval.err" || { cat "$tmp/eval.err"; exit 1; }
cat "$tmp/eval.txt"
python3 - "$tmp/eval.json" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))["all"]
assert j["pairs"] >= 150, j
assert j["ranker"] >= 0.80, j
for k, v in j["heuristics"].items():
    assert j["ranker"] > v, (k, v, j["ranker"])
print("rank eval: ok", j["ranker"])
PY
"$bin" rank train --records "$records" --root "$root" --out "$tmp/m.json" > /dev/null 2>&1 || { echo "FAIL: train"; exit 1; }
[ -s "$tmp/m.json" ] && [ -s "$tmp/m.meta.json" ] || { echo "FAIL: no model/metadata"; exit 1; }
out=$("$bin" rank score --task elementwise/saxpy --root "$root" --model "$tmp/m.json" "$root/c2cuda/elementwise/saxpy/impls/vectorized.cu" 2>&1) || { echo "FAIL: score: $out"; exit 1; }
echo "$out"
# the naive implementation must be ranked below the vectorized one
python3 - <<PY || exit 1
rows = {l.split()[0]: float(l.split()[1]) for l in """$out""".splitlines()[1:] if l.strip()}
assert rows["dataset:vectorized"] > rows["dataset:naive"], rows
PY
"$bin" rank score --task elementwise/saxpy --root "$root" --model "$tmp/none.json" x.cu > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: a missing model should exit 2"; exit 1; }
echo "rank: ok"

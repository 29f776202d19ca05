#!/usr/bin/env bash
# `cudaperf export --split`: the family-level split of the generated tier (tags split:train|heldout);
# curated tasks (no split tag) are train.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$src/data/generators/gen.py" generate --out "$tmp/gen" --manifest "$tmp/m.json" --families poly_horner,fft_butterfly --per-family 3 > /dev/null || exit 1
for s in train heldout all; do
  "$bin" export --root "$tmp/gen" --split $s --out "$tmp/$s.jsonl" 2>/dev/null || { echo "FAIL: export --split $s"; exit 1; }
done
"$bin" export --root "$src/tests/data/good_tasks" --split train --out "$tmp/curated.jsonl" 2>/dev/null || { echo "FAIL: curated train"; exit 1; }
"$bin" export --root "$src/tests/data/good_tasks" --split heldout --out "$tmp/none.jsonl" 2>/dev/null
[ $? -eq 1 ] && [ ! -s "$tmp/none.jsonl" ] || { echo "FAIL: curated tasks are not held out"; exit 1; }
"$bin" export --root "$tmp/gen" --split test > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown split should exit 2"; exit 1; }
python3 - "$tmp" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
rows = {s: [json.loads(l) for l in open(f"{d}/{s}.jsonl")] for s in ("train", "heldout", "all", "curated")}
assert [r["split"] for r in rows["train"]] == ["train"] * 3 and all(r["task_id"].startswith("poly_horner/") for r in rows["train"]), rows["train"]
assert [r["split"] for r in rows["heldout"]] == ["heldout"] * 3 and all(r["task_id"].startswith("fft_butterfly/") for r in rows["heldout"])
assert sorted(r["task_id"] for r in rows["all"]) == sorted(r["task_id"] for r in rows["train"] + rows["heldout"])
assert [r["split"] for r in rows["curated"]] == ["train"]
print("export --split: ok")
PY

#!/usr/bin/env bash
# `cudaperf export`: every task once per format, valid JSON lines in each engine's layout, the task
# id as ground truth; a category filter; a bad format is exit 2.
set -uo pipefail
bin=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=$(find "$root" -name task.toml -not -path "*/torch2cuda/*" | wc -l)  # export writes C-to-CUDA prompts only
for f in jsonl trl verl; do
  "$bin" export --format $f --root "$root" --out "$tmp/$f.jsonl" 2>/dev/null || { echo "FAIL: export $f"; exit 1; }
done
python3 - "$tmp" "$n" <<'PY' || exit 1
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
rows = {f: [json.loads(l) for l in open(f"{d}/{f}.jsonl")] for f in ("jsonl", "trl", "verl")}
for f, r in rows.items():
    assert len(r) == n, (f, len(r), n)
ids = [r["task_id"] for r in rows["jsonl"]]
assert len(set(ids)) == n and all(r["ground_truth"] == r["task_id"] for r in rows["jsonl"])
assert all("```cuda" in r["prompt"] and "cudaStream_t" in r["prompt"] for r in rows["jsonl"])
assert [r["task_id"] for r in rows["trl"]] == ids
assert all(r["prompt"][0]["role"] == "user" and r["prompt"][0]["content"] for r in rows["trl"])
for i, r in enumerate(rows["verl"]):
    assert set(r) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}, r.keys()
    assert r["reward_model"] == {"style": "rule", "ground_truth": ids[i]} and r["extra_info"]["index"] == i
print("export: ok", n)
PY
m=$("$bin" export --root "$root" --category elementwise 2>/dev/null | wc -l)
[ "$m" -ge 1 ] && [ "$m" -lt "$n" ] || { echo "FAIL: category filter gave $m"; exit 1; }
"$bin" export --format parquet --root "$root" > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown format should exit 2"; exit 1; }

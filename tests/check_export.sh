#!/usr/bin/env bash
# `cudaperf export`: every task of both kinds once per format, valid JSON lines in each engine's layout,
# the task id as ground truth, each kind's prompt (C reference and signature / PyTorch module and
# ModelNew); a category filter; a bad format is exit 2.
set -uo pipefail
bin=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=$(find "$root" -name task.toml | wc -l)
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
kinds = [r["kind"] for r in rows["jsonl"]]
assert set(kinds) <= {"c2cuda", "torch2cuda"} and kinds == sorted(kinds), kinds  # C-to-CUDA first
for r in rows["jsonl"]:
    if r["kind"] == "c2cuda":
        assert "```cuda" in r["prompt"] and "cudaStream_t" in r["prompt"], r["task_id"]
    else:
        assert r["task_id"].startswith("torch2cuda/") and "```python" in r["prompt"], r["task_id"]
        assert "ModelNew" in r["prompt"] and "class Model" in r["prompt"] and "{{" not in r["prompt"], r["task_id"]
assert [r["task_id"] for r in rows["trl"]] == ids
assert all(r["prompt"][0]["role"] == "user" and r["prompt"][0]["content"] for r in rows["trl"])
for i, r in enumerate(rows["verl"]):
    assert set(r) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}, r.keys()
    assert r["reward_model"] == {"style": "rule", "ground_truth": ids[i]} and r["extra_info"]["index"] == i
    assert r["data_source"] == "cudaperf/" + kinds[i], r["data_source"]
print("export: ok", n, "of which torch2cuda", kinds.count("torch2cuda"))
PY
m=$("$bin" export --root "$root" --category elementwise 2>/dev/null | wc -l)
[ "$m" -ge 1 ] && [ "$m" -lt "$n" ] || { echo "FAIL: category filter gave $m"; exit 1; }
# --kind: one kind only, and together the whole export
c=$("$bin" export --root "$root" --kind c2cuda 2>/dev/null | grep -c '"kind":"c2cuda"')
t=$("$bin" export --root "$root" --kind torch2cuda 2>/dev/null | grep -c '"kind":"torch2cuda"')
[ "$((c + t))" -eq "$n" ] && [ "$("$bin" export --root "$root" --kind c2cuda 2>/dev/null | wc -l)" -eq "$c" ] ||
  { echo "FAIL: --kind gave $c c2cuda + $t torch2cuda of $n"; exit 1; }
"$bin" export --format parquet --root "$root" > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown format should exit 2"; exit 1; }

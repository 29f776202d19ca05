#!/usr/bin/env bash
# On the H200 (device tool; the working tree carries build/gpu-bundle from tools/bundle-gpu.sh):
# every implementation of a stratified 20 % sample of the generated tier through
# `cudaperf tasks check-gpu` (small configs against the C reference, perf configs timed), via
# tools/gpu-check.sh dataset. Writes under $OUT: records.jsonl (one line per task x impl x config,
# the format of data/records/), dataset.txt / dataset.log (check-gpu's table and stages),
# sample-<shard>.txt (the task ids), summary-<shard>.json (ok / not ok per task and family).
#
#   bash data/generators/gpu_sample.sh [SHARD NSHARDS]     e.g. 0 4, 1 4, 2 4, 3 4 (one device call each)
#
# TIME_BUDGET (seconds of sampling per perf config) defaults to 0.5 here: the point is `ok` on the
# device, not a precise timing. Tasks outside the sample stay unverified (`cudaperf tasks stats`).
set -uo pipefail
cd "$(dirname "$0")/../.."
shard=${1:-0} nshards=${2:-1}
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
cp data/generators/manifest.json "$tmp/manifest.json"
python3 data/generators/gen.py generate --out "$tmp/tree" --manifest "$tmp/manifest.json" > /dev/null || { echo "generation failed"; exit 2; }
python3 data/generators/gen.py check --out "$tmp/tree" > /dev/null || { echo "the generated tree differs from manifest.json"; exit 2; }
sample=$tmp/sample-$shard
i=0
for id in $(python3 data/generators/gen.py sample --fraction 0.2); do
  if [ $((i % nshards)) -eq "$shard" ]; then
    mkdir -p "$sample/c2cuda/$(dirname "$id")"
    cp -r "$tmp/tree/c2cuda/$id" "$sample/c2cuda/$id"
    echo "$id" >> "$OUT/sample-$shard.txt"
  fi
  i=$((i + 1))
done
echo "shard $shard/$nshards: $(wc -l < "$OUT/sample-$shard.txt") of $i sampled tasks"
start=$(date +%s)
TIME_BUDGET=${TIME_BUDGET:-0.5} OUT="$OUT" bash tools/gpu-check.sh dataset "$sample"
rc=$?
python3 - "$OUT/records.jsonl" "$OUT/sample-$shard.txt" "$OUT/summary-$shard.json" "$(( $(date +%s) - start ))" <<'PY'
import json, sys
recs, ids, out, wall = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
want = [l.strip() for l in open(ids) if l.strip()]
by = {t: {} for t in want}
try:
    for line in open(recs):
        r = json.loads(line)
        if r["task"] in by:
            by[r["task"]][(r["impl"], r["config"])] = r["status"]
except FileNotFoundError:
    pass
tasks = {t: {"ok": bool(v) and all(s == "ok" for s in v.values()), "results": len(v),
             "not_ok": sorted(f"{i}@{c}: {s}" for (i, c), s in v.items() if s != "ok")[:5]} for t, v in by.items()}
fams = {}
for t, v in tasks.items():
    f = fams.setdefault(t.split("/")[0], {"tasks": 0, "ok": 0})
    f["tasks"] += 1
    f["ok"] += v["ok"]
json.dump({"wall_s": wall, "tasks": len(tasks), "ok": sum(v["ok"] for v in tasks.values()), "families": fams, "per_task": tasks},
          open(out, "w"), indent=1, sort_keys=True)
print(f"summary: {sum(v['ok'] for v in tasks.values())}/{len(tasks)} sampled tasks ok on every impl and config, {wall} s")
PY
rm -rf "$tmp"
exit $rc

#!/usr/bin/env bash
# The generated tier on the device machine (the working tree carries build/gpu-bundle from
# tools/bundle-gpu.sh). Two modes, each in shards that fit one device call:
#
#   [FAMILIES="a b ..."] bash data/generators/gpu_sample.sh validate [SHARD NSHARDS]
#       `cudaperf tasks validate` (CPU only: builds, gates, null battery, link allowlist) over the
#       families of this shard, -j all cores; $OUT/validate-<shard>.json + .txt + timing. Back here:
#       python3 data/generators/gen.py record-validation OUT/validate-*.json && python3 data/generators/gen.py prune
#   bash data/generators/gpu_sample.sh check [SHARD NSHARDS]
#       every implementation of this shard of the stratified 20 % sample (gen.py sample: both kinds;
#       the torch2cuda tasks need CUDAPERF_PYTHON with a CUDA torch on the device) through
#       `cudaperf tasks check-gpu` via tools/gpu-check.sh dataset: $OUT/records.jsonl (the format of
#       data/records/), dataset.txt / dataset.log, sample-<shard>.txt, summary-<shard>.json.
#       KIND=c2cuda or KIND=torch2cuda restricts the sample to one kind (gen.py sample --kind).
#
# TIME_BUDGET (seconds of sampling per perf config) defaults to 0.5 in check mode: the point is
# `ok` on the device, not a precise timing. Tasks outside the sample stay unverified.
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-check} shard=${2:-0} nshards=${3:-1}
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-/tmp/cudaperf-cache}
bin=${CUDAPERF:-build/gpu-bundle/cudaperf}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp data/generators/manifest.json "$tmp/manifest.json"
python3 data/generators/gen.py generate --out "$tmp/tree" --manifest "$tmp/manifest.json" > /dev/null || { echo "generation failed"; exit 2; }
python3 data/generators/gen.py check --out "$tmp/tree" > /dev/null || { echo "the generated tree differs from manifest.json"; exit 2; }
start=$(date +%s)
case "$mode" in
  validate)
    sel=$tmp/validate-$shard; i=0
    # FAMILIES="a b ..." restricts the pass (c2cuda family names, torch2cuda categories gen_pt_*)
    for fam in ${FAMILIES:-$(ls "$tmp/tree/c2cuda") $(ls "$tmp/tree/torch2cuda")}; do
      if [ $((i % nshards)) -eq "$shard" ]; then
        if [ -d "$tmp/tree/c2cuda/$fam" ]; then mkdir -p "$sel/c2cuda"; cp -r "$tmp/tree/c2cuda/$fam" "$sel/c2cuda/"
        else mkdir -p "$sel/torch2cuda"; cp -r "$tmp/tree/torch2cuda/$fam" "$sel/torch2cuda/"; fi
      fi
      i=$((i + 1))
    done
    n=$(find "$sel" -name task.toml | wc -l)
    "$bin" tasks validate "$sel" -j "$(nproc)" --json "$OUT/validate-$shard.json" > "$OUT/validate-$shard.txt" 2>&1
    rc=$?
    wall=$(( $(date +%s) - start ))
    echo "validate shard $shard/$nshards: $n tasks, exit $rc, $wall s wall on $(nproc) cores" | tee "$OUT/validate-$shard.timing"
    tail -5 "$OUT/validate-$shard.txt"
    exit $rc ;;
  check)
    sample=$tmp/sample-$shard; i=0
    for id in $(python3 data/generators/gen.py sample --fraction 0.2 --kind "${KIND:-}"); do
      if [ $((i % nshards)) -eq "$shard" ]; then
        case "$id" in  # torch2cuda ids are their folder under the root; c2cuda ids live under c2cuda/
          torch2cuda/*) mkdir -p "$sample/$(dirname "$id")"; cp -r "$tmp/tree/$id" "$sample/$id" ;;
          *) mkdir -p "$sample/c2cuda/$(dirname "$id")"; cp -r "$tmp/tree/c2cuda/$id" "$sample/c2cuda/$id" ;;
        esac
        echo "$id" >> "$OUT/sample-$shard.txt"
      fi
      i=$((i + 1))
    done
    echo "shard $shard/$nshards: $(wc -l < "$OUT/sample-$shard.txt") of $i sampled tasks"
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
    exit $rc ;;
  *) echo "usage: $0 validate|check [SHARD NSHARDS]"; exit 2 ;;
esac

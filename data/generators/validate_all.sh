#!/usr/bin/env bash
# Validates every generated task once (docs/generators.md) and records the results in manifest.json.
#   bash data/generators/validate_all.sh CUDAPERF_BIN [JOBS] [FAMILY...]
# One `cudaperf tasks validate` per family (30 tasks), JSON reports and timings in
# data/generated/validation/ (not committed), then gen.py record-validation. Failed tasks are left
# for `gen.py prune`.
set -uo pipefail
bin=$1; jobs=${2:-2}; shift $(( $# >= 2 ? 2 : $# ))
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../generated" 2>/dev/null && pwd) || { echo "run gen.py generate first"; exit 2; }
out=$root/validation; mkdir -p "$out"
fams=("$@"); [ ${#fams[@]} -gt 0 ] || fams=($(ls "$root/c2cuda"))
for f in "${fams[@]}"; do
  start=$(date +%s.%N)
  "$bin" tasks validate "$root/c2cuda/$f" -j "$jobs" --json "$out/$f.json" > "$out/$f.txt" 2>&1
  rc=$?
  end=$(date +%s.%N)
  n=$(ls "$root/c2cuda/$f" | wc -l)
  printf '%-22s %3d tasks  exit %d  %7.1f s  %5.1f s/task  %s\n' "$f" "$n" $rc "$(echo "$end - $start" | bc)" \
    "$(echo "($end - $start) / $n" | bc -l)" "$(grep -c '^FAIL' "$out/$f.txt") FAIL line(s)" | tee -a "$out/timings.txt"
  python3 "$here/gen.py" record-validation "$out/$f.json" > /dev/null
done

#!/usr/bin/env bash
# structure [--category-limit S] [CATEGORY_DIR...]
# Every dataset implementation once under ncu, for bench/structure_agreement.py.
#   The metrics are `profile-target --list-metrics` (DESIGN §5) that this ncu knows
#   (tools/gpu/ncu_metrics.py); one ncu run per category folder.
#   CATEGORY_DIR...      c2cuda category folders (default data/tasks/c2cuda/*/)
#   --category-limit S   each category's ncu run is stopped after S seconds (default 120)
# Writes under $OUT: profile-items.jsonl, ncu-structure.tgz (ncu-<category>.csv), structure.log
# (dropped metrics, stderr, each category's ncu exit and seconds), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
cat_limit=120
cats=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --category-limit) need_value "$@"; check_number "$1" "$2"; cat_limit=$2; shift 2 ;;
    -*) usage_error "unknown option $1" ;;
    *) cats+=("$1"); shift ;;
  esac
done
[ ${#cats[@]} -gt 0 ] || cats=(data/tasks/c2cuda/*/)
for c in "${cats[@]}"; do check_dir "$c"; done
gpu_setup
ncu=$(find_ncu)
[ -n "$ncu" ] || die "ncu not found (PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute)"
tmp=$(mktemp -d)
"$bin" profile-target --list-metrics | tr ',' '\n' > "$tmp/wanted.txt"
"$ncu" --query-metrics > "$tmp/query.txt" 2>&1
python3 tools/gpu/ncu_metrics.py "$tmp/wanted.txt" "$tmp/query.txt" "$tmp/metrics.txt" > "$OUT/structure.log"
: > "$OUT/profile-items.jsonl"
for cat in "${cats[@]}"; do
  cname=$(basename "$cat"); root=$tmp/r-$cname; mkdir -p "$root/c2cuda"; cp -r "$cat" "$root/c2cuda/"
  "$bin" profile-target --all --root "$root" --config build-only > /dev/null 2>&1  # fills the compile cache
  start=$(date +%s)
  timeout "$cat_limit" "$ncu" --clock-control none --cache-control all --target-processes application-only \
    --csv --print-units base \
    --metrics "$(cat "$tmp/metrics.txt")" --log-file "$tmp/ncu-$cname.csv" \
    "$bin" profile-target --all --root "$root" >> "$OUT/profile-items.jsonl" 2>> "$OUT/structure.log"
  echo "$cname: ncu exit $? in $(( $(date +%s) - start )) s" >> "$OUT/structure.log"
done
(cd "$tmp" && tar czf "$OUT/ncu-structure.tgz" ncu-*.csv)

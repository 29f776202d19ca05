#!/usr/bin/env bash
# serve [--n N] [--deadline S] [--workers-per-gpu N] [--batch N] [--time-budget S] [--analyze] [--resume DIR]
# The reward service under load (bench/serve_load.py), a worker killed mid-batch; resumable.
#   The tasks are tools/serve_load_root.py's. At the deadline the load test stops cleanly and leaves
#   its store in $OUT, for a resumed run.
#   --n N                 candidates (default: $SERVE_N, else 1000)
#   --deadline S          seconds before the load test stops (default: $SERVE_DEADLINE, else 500)
#   --workers-per-gpu N   service workers per GPU (default 4)
#   --batch N             candidates per worker batch (default 8)
#   --time-budget S       sampling seconds per perf config (default: $TIME_BUDGET, else 0.1)
#   --analyze             first, tests/gpu_analyze_dynamic.sh (`analyze --dynamic` on the GPU)
#   --resume DIR          finish a stopped run whose $OUT files were carried in DIR (`tools/gpu-check.sh
#                         serve-resume` is `serve --resume build/serve-load`); --n and --analyze do not apply
# Writes under $OUT: serve-load.txt and bench/serve_load.py's files (its report, metrics, store, logs),
# analyze-dynamic.txt with --analyze, device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
n=${SERVE_N:-1000} deadline=${SERVE_DEADLINE:-500} wpg=4 batch=8 budget=${TIME_BUDGET:-0.1}
analyze="" resume=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --n) need_value "$@"; check_count "$1" "$2"; n=$2; shift 2 ;;
    --deadline) need_value "$@"; check_number "$1" "$2"; deadline=$2; shift 2 ;;
    --workers-per-gpu) need_value "$@"; check_count "$1" "$2"; wpg=$2; shift 2 ;;
    --batch) need_value "$@"; check_count "$1" "$2"; batch=$2; shift 2 ;;
    --time-budget) need_value "$@"; check_number "$1" "$2"; budget=$2; shift 2 ;;
    --analyze) analyze=1; shift ;;
    --resume) need_value "$@"; resume=$2; shift 2 ;;
    *) usage_error "unknown argument $1" ;;
  esac
done
[ -z "$resume" ] || check_dir "$resume"
gpu_setup
if [ -n "$analyze" ] && [ -z "$resume" ]; then
  bash tests/gpu_analyze_dynamic.sh "$bin" data/tasks > "$OUT/analyze-dynamic.txt" 2>&1; echo "exit $?" >> "$OUT/analyze-dynamic.txt"
fi
python3 tools/serve_load_root.py data/tasks "$PWD/build/serve-load-root"
if [ -n "$resume" ]; then what=(--resume "$resume"); else what=(--n "$n"); fi
python3 bench/serve_load.py --cudaperf "$PWD/$bin" --root "$PWD/build/serve-load-root" --out "$OUT" \
  "${what[@]}" --deadline-s "$deadline" --workers-per-gpu "$wpg" \
  --batch "$batch" --time-budget "$budget" > "$OUT/serve-load.txt" 2>&1
rm -rf "$OUT/seq"

#!/usr/bin/env bash
# torch-vs-kb [--time-budget S] [--kb-deadline S] TASK_DIR...
# Candidates per minute: the engine against a KernelBench-style loop, on the same impls.
#   `tasks check-gpu` and bench/kernelbench_loop.py, both with cold compile caches.
#   --time-budget S   the engine's seconds of sampling per perf config (default: $TIME_BUDGET, else 0.5)
#   --kb-deadline S   the loop stops after S seconds; its rate is over the candidates it finished
#                     (default: $KB_DEADLINE, else none)
# Writes under $OUT: torch-vs-kb.json (the summary), engine.txt and engine.log (the engine's output
# and stderr, appended), kb-loop.json, kb-loop.log, device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
budget=${TIME_BUDGET:-0.5} kb_deadline=${KB_DEADLINE:-}
dirs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --time-budget) need_value "$@"; check_number "$1" "$2"; budget=$2; shift 2 ;;
    --kb-deadline) need_value "$@"; check_number "$1" "$2"; kb_deadline=$2; shift 2 ;;
    -*) usage_error "unknown option $1" ;;
    *) dirs+=("$1"); shift ;;
  esac
done
[ ${#dirs[@]} -gt 0 ] || usage_error "needs at least one TASK_DIR"
[ -z "$kb_deadline" ] || check_number --kb-deadline "$kb_deadline"
for d in "${dirs[@]}"; do check_dir "$d"; done
gpu_setup
n=0; for d in "${dirs[@]}"; do n=$(( n + $(find "$d" -path '*/impls/*.py' | wc -l) )); done
s=$(date +%s)
cold=$(mktemp -d)
for d in "${dirs[@]}"; do
  CUDAPERF_CACHE_DIR=$cold "$bin" tasks check-gpu "$d" --time-budget "$budget" >> "$OUT/engine.txt" 2>> "$OUT/engine.log"
done
e=$(( $(date +%s) - s ))
python3 bench/kernelbench_loop.py --tasks "${dirs[@]}" --out "$OUT/kb-loop.json" ${kb_deadline:+--deadline "$kb_deadline"} 2> "$OUT/kb-loop.log"
python3 tools/gpu/torch_vs_kb.py "$n" "$e" "$OUT/kb-loop.json" | tee "$OUT/torch-vs-kb.json"

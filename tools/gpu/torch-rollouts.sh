#!/usr/bin/env bash
# torch-rollouts [--time-budget S] [--kb-deadline S] TASK_DIR [N]
# The torch-vs-kb job on N distinct candidates of one task (the many-candidates-per-task regime of RL).
#   bench/rollout_variants.py writes the candidates under build/rollouts.
#   TASK_DIR          one torch2cuda task folder
#   N                 candidates (default 16)
#   --time-budget S, --kb-deadline S   passed to torch-vs-kb
# Writes under $OUT: the torch-vs-kb job's files.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
pass=() pos=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --time-budget|--kb-deadline) need_value "$@"; check_number "$1" "$2"; pass+=("$1" "$2"); shift 2 ;;
    -*) usage_error "unknown option $1" ;;
    *) pos+=("$1"); shift ;;
  esac
done
if [ ${#pos[@]} -lt 1 ] || [ ${#pos[@]} -gt 2 ]; then usage_error "needs TASK_DIR and at most N"; fi
task=${pos[0]} n=${pos[1]:-16}
check_count N "$n"
check_dir "$task"
gpu_setup
rel=$(python3 bench/rollout_variants.py "$task" --n "$n" --out build/rollouts | sed 's/^.* in //')
OUT="$OUT" bash tools/gpu/torch-vs-kb.sh "${pass[@]}" "$rel"

#!/usr/bin/env bash
# dataset [--time-budget S] [FOLDER...]
# Every implementation against the C reference (`tasks check-gpu`), timed at perf size.
#   FOLDER...         task folders, one run each (default data/tasks)
#   --time-budget S   seconds of sampling per perf config (default: $TIME_BUDGET, else 2)
# Writes under $OUT: records.jsonl (appended), dataset.txt (the tables and each folder's wall
# seconds, appended), dataset.log (stderr), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
budget_and_folders 2 "$@"
[ ${#folders[@]} -gt 0 ] || folders=(data/tasks)
gpu_setup
crashed=0
for d in "${folders[@]}"; do
  start=$(date +%s)
  "$bin" tasks check-gpu "$d" --time-budget "$budget" \
    --records "$OUT/records.jsonl" 2>> "$OUT/dataset.log" | tee -a "$OUT/dataset.txt"
  rc=${PIPESTATUS[0]}
  # a crash of cudaperf itself (signal), not implementations with problems (1) or a deadline (4)
  if [ "$rc" -ge 128 ]; then echo "CRASH: cudaperf tasks check-gpu $d ended by signal $((rc - 128))" | tee -a "$OUT/dataset.txt"; crashed=1; fi
  echo "$d wall seconds: $(( $(date +%s) - start ))" | tee -a "$OUT/dataset.txt"
done
exit $crashed

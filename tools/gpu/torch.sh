#!/usr/bin/env bash
# torch [--time-budget S] [DIR...]
# torch2cuda folders through `tasks validate` and `tasks check-gpu` (docs/torch2cuda.md), then torch-redteam.
#   Needs torch in $CUDAPERF_PYTHON (default python3).
#   DIR...            task folders (default tests/data/torch_tasks and data/tasks/torch2cuda)
#   --time-budget S   seconds of sampling per perf config (default: $TIME_BUDGET, else 1)
# Writes under $OUT: torch.txt (appended), torch.log (stderr), torch-validate-<dir>.json,
# torch-check-<dir>.json, torch-records.jsonl, the torch-redteam job's files, device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
budget_and_folders 1 "$@"
if [ ${#folders[@]} -eq 0 ]; then
  folders=(tests/data/torch_tasks)
  [ -d data/tasks/torch2cuda ] && folders+=(data/tasks/torch2cuda)
fi
gpu_setup
[ -f "$CUDAPERF_CONFINE_LIB" ] || echo "warning: $CUDAPERF_CONFINE_LIB missing (add libcudaperf_confine.so to the bundle); candidate workers refuse to run unconfined" | tee "$OUT/torch.txt"
{ "$CUDAPERF_PYTHON" -c "import torch; print('torch', torch.__version__, torch.version.cuda, torch.cuda.is_available())"; } >> "$OUT/torch.txt" 2>&1 \
  || { echo "torch job: torch is not importable by $CUDAPERF_PYTHON" | tee -a "$OUT/torch.txt"; exit 2; }
for d in "${folders[@]}"; do
  { echo "== validate $d"; "$bin" tasks validate "$d" --json "$OUT/torch-validate-$(basename "$d").json"; } >> "$OUT/torch.txt" 2>&1
  start=$(date +%s)
  { echo "== check-gpu $d"
    "$bin" tasks check-gpu "$d" --time-budget "$budget" --json "$OUT/torch-check-$(basename "$d").json" \
      --records "$OUT/torch-records.jsonl" 2>> "$OUT/torch.log"
    echo "$d wall seconds: $(( $(date +%s) - start ))"; } >> "$OUT/torch.txt"
done
OUT="$OUT" bash tools/gpu/torch-redteam.sh

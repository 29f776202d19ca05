#!/usr/bin/env bash
# torch-redteam
# The torch red team in one eval run, and one candidate's compile time cold then cached.
#   tests/redteam/torch/*.py (each file's "# expect:" line) against torch2cuda/elementwise/leaky_relu:
#   shared reference and inputs, each candidate confined alone. The compile time is leaky_relu's
#   vectorized impl in a fresh cache, then again.
# Writes under $OUT: torch-redteam.json and .txt (a line per row: expected and actual verdict),
# torch-eval-cold.json, torch-eval-cached.json, torch.txt (appended: the two build lines), torch.log
# (stderr), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
no_arguments "$@"
gpu_setup
c=tests/data/torch_tasks/torch2cuda/elementwise/leaky_relu/impls/vectorized.py
cold=$(mktemp -d)  # its own cache: the dataset's builds in $CUDAPERF_CACHE_DIR stay
for run in cold cached; do
  CUDAPERF_CACHE_DIR=$cold "$bin" eval --root tests/data/torch_tasks --task torch2cuda/elementwise/leaky_relu --candidate "$c" --json \
    --time-budget 0.5 > "$OUT/torch-eval-$run.json" 2>> "$OUT/torch.log"
  python3 tools/gpu/eval_lines.py build "$run" "$OUT/torch-eval-$run.json" >> "$OUT/torch.txt" 2>&1
done
args=(); for f in tests/redteam/torch/*.py; do args+=(--candidate "$f"); done
"$bin" eval --root tests/data/torch_tasks --task torch2cuda/elementwise/leaky_relu "${args[@]}" --time-budget 0.5 --json \
  > "$OUT/torch-redteam.json" 2>> "$OUT/torch.log"
python3 tools/gpu/eval_lines.py redteam "$OUT/torch-redteam.json" | tee "$OUT/torch-redteam.txt"

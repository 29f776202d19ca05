#!/usr/bin/env bash
# refine
# `cudaperf refine` with a scripted model and real GPU verdicts (tests/check_refine_gpu.py).
#   The same check as the ctest gpu.refine_scripted.
# Writes under $OUT: refine.txt (the check's output and its exit status), refine.jsonl (the
# trajectories), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
no_arguments "$@"
gpu_setup
CUDAPERF_BENCH_OUT="$OUT/refine.jsonl" python3 tests/check_refine_gpu.py "$bin" data/tasks . > "$OUT/refine.txt" 2>&1
echo "exit $?" >> "$OUT/refine.txt"

#!/usr/bin/env bash
# smoke
# One eval of saxpy's vectorized implementation: a quick check that the bundle runs here.
# Writes under $OUT: smoke.txt (the eval report), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
no_arguments "$@"
gpu_setup
"$bin" eval --root data/tasks --task elementwise/saxpy \
  --candidate data/tasks/c2cuda/elementwise/saxpy/impls/vectorized.cu | tee "$OUT/smoke.txt"

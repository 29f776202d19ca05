#!/usr/bin/env bash
# Runs on the GPU machine (device tool), over a working tree that carries build/gpu-bundle:
#   every dataset implementation against its C reference on the small configs, then timed at
#   the perf size. Writes JSON and the table under $OUT (or ./gpu-out when OUT is unset).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_CACHE_DIR=/tmp/cudaperf-cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/device.csv" 2>&1
./build/gpu-bundle/cudaperf tasks check-gpu "${1:-data/tasks}" ${CHECK_ARGS:-} --json "$OUT/gpu-check.json" 2> "$OUT/gpu-check.log" | tee "$OUT/gpu-check.txt"

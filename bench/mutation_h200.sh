#!/usr/bin/env bash
# The mutation suite on the H200 (issue 20 item 4), one command, about 6 minutes: a stratified sample of
# mutants of both task kinds' dataset implementations and honest implementations, each through
# `cudaperf eval --json`; the report in $OUT/mutation.json (bench/mutation_suite.py). Run over a working
# tree that carries build/gpu-bundle (tools/bundle-gpu.sh), like tools/gpu-check.sh.
#   OUT=/path bash bench/mutation_h200.sh [extra mutation_suite.py arguments]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-/tmp/cudaperf-cache}
export CUDAPERF_PYTHON_DIR="$PWD/python"
export CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
export CUDAPERF_CONFINE_LIB=${CUDAPERF_CONFINE_LIB:-$PWD/build/gpu-bundle/libcudaperf_confine.so}
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/device.csv" 2>&1
# 12 C-to-CUDA classes x 3 + 10 torch2cuda classes x 1 mutants, 6 honest impls of each kind; C-to-CUDA
# first (half the budget) while the torch extensions build on all cores; nothing starts after 330 s
python3 bench/mutation_suite.py --bin build/gpu-bundle/cudaperf --per-class 3 --torch-per-class 1 --honest 6 \
  --budget-s "${BUDGET_S:-330}" --time-budget 0.1 --workdir "$OUT/mutants" --json "$OUT/mutation.json" "$@" \
  > "$OUT/mutation.txt" 2>&1
rc=$?
tail -40 "$OUT/mutation.txt"
exit $rc

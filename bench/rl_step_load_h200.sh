#!/usr/bin/env bash
# Reward throughput at RL load on the H200, one command (at most ~9.5 min): two GRPO steps of 16 tasks
# x 8 samples (half C-to-CUDA, half PyTorch-to-CUDA) through `cudaperf serve`, cold then warm, and
# bench/kernelbench_loop.py on 2 of the same torch2cuda candidates; the report in
# $OUT/rl-step-load.json (bench/rl_step_load.py, bench/README-rl-step-load.md). Run over a working
# tree that carries build/gpu-bundle (tools/bundle-gpu.sh), like tools/gpu-check.sh.
#   OUT=/path bash bench/rl_step_load_h200.sh [extra rl_step_load.py arguments]
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/../tools/gpu/common.sh"
gpu_setup
work=/tmp/rl-step-load
rm -rf "$work"
# nothing starts that could not end before ${DEADLINE_S:-560} s; the device tool's limit is 600 s
python3 bench/rl_step_load.py --bin "$bin" --json "$OUT/rl-step-load.json" --workdir "$work" \
  --deadline-s "${DEADLINE_S:-560}" --kernelbench-sample "${KB_SAMPLE:-2}" "$@" > "$OUT/rl-step-load.txt" 2>&1
rc=$?
cp "$work"/serve-*.log "$OUT/" 2>/dev/null
[ -f "$work/kernelbench.json" ] && cp "$work/kernelbench.json" "$OUT/"
tail -40 "$OUT/rl-step-load.txt"
exit $rc

#!/usr/bin/env bash
# One device call, several tools/gpu-check.sh jobs in a row within a time limit, every output packed
# into $OUT/all.tgz (the device tool returns at most 8 files). Usage, on the GPU machine:
#   tools/gpu-run.sh SECONDS 'JOB [ARGS...]' ['JOB [ARGS...]' ...]
# e.g.  tools/gpu-run.sh 560 'torch-tasks data/tasks/torch2cuda/activations,data/tasks/torch2cuda/losses' 'torch-redteam'
# Each job gets the time that is left (it is stopped at the limit; torch-tasks also gets it as
# TORCH_DEADLINE, so it starts no task it cannot finish) and its own folder under $OUT. The jobs'
# environment defaults (TIME_BUDGET, SERVE_N, KB_DEADLINE) pass through. Packing takes ~10 s: leave room.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
limit=$1; shift
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
t0=$(date +%s)
export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-$PWD/build/t2c-cache}  # kept on a warm machine between calls
i=0
for step in "$@"; do
  left=$(( t0 + limit - $(date +%s) ))
  [ "$left" -gt 20 ] || { echo "no time left for: $step" >> "$OUT/times.txt"; continue; }
  dir="$OUT/$i-${step%% *}"; mkdir -p "$dir"
  # serve stops cleanly (its report and store written) 40 s before this step's limit
  serve_deadline=$(( left - 40 )); [ "$serve_deadline" -lt "${SERVE_DEADLINE:-500}" ] || serve_deadline=${SERVE_DEADLINE:-500}
  # shellcheck disable=SC2086 # a step is 'JOB ARGS...': split on purpose
  OUT="$dir" TORCH_DEADLINE=$(( t0 + limit - 90 )) SERVE_DEADLINE=$serve_deadline timeout -k 5 "$left" bash tools/gpu-check.sh $step
  echo "$step: exit $?, $(( $(date +%s) - t0 )) s" >> "$OUT/times.txt"
  mv "$dir"/t2c-*.tgz "$OUT/" 2>/dev/null  # cache packs (torch-cache-out) come back as files of their own
  i=$((i + 1))
done
(cd "$OUT" && tar czf all.tgz --exclude=all.tgz --exclude='t2c-*.tgz' ./* &&
  find . -mindepth 1 -maxdepth 1 ! -name all.tgz ! -name times.txt ! -name 't2c-*.tgz' -exec rm -rf {} +)
cat "$OUT/times.txt"

#!/usr/bin/env bash
# GPU test: every dataset implementation must match its C reference on the small configs.
# Exits 77 (ctest: skipped) when no GPU is visible.
set -uo pipefail
bin=$1 root=$2
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU visible: skipping"; exit 77
fi
exec "$bin" tasks check-gpu "$root" --no-perf

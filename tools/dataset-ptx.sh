#!/usr/bin/env bash
# PTX (-lineinfo -O3, sm_90) of every dataset implementation, for bench/analysis_bench.
#   tools/dataset-ptx.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/dataset-ptx.sh OUTDIR}
mkdir -p "$out"
# shellcheck disable=SC2016 # the inner sh expands $f and $n; only $out is spliced in
find data/tasks -path '*/impls/*.cu' | sort | xargs -P "$(nproc)" -I{} sh -c '
  f={}; n=$(echo "$f" | sed "s|data/tasks/||; s|/impls/|__|; s|/|_|g; s|\.cu$||")
  /usr/local/cuda/bin/nvcc -arch=sm_90 -std=c++17 -O3 -lineinfo -ptx "$f" -o "'"$out"'/$n.ptx" 2>/dev/null || echo "no ptx: $f" >&2'
find "$out" -maxdepth 1 -name '*.ptx' | wc -l

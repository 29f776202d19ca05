#!/usr/bin/env bash
# torch-build [--jobs N] [DIR]
# Every torch2cuda implementation's extension built cold, in parallel (`check-gpu --build-only`).
#   DIR        task folder (default data/tasks/torch2cuda)
#   --jobs N   parallel builds (default 0: one per core)
# Writes under $OUT: torch-build.json, torch-build.txt (output), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
jobs=0 dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --jobs) need_value "$@"; check_count "$1" "$2"; jobs=$2; shift 2 ;;
    -*) usage_error "unknown option $1" ;;
    *) [ -z "$dir" ] || usage_error "one folder only"; dir=$1; shift ;;
  esac
done
dir=${dir:-data/tasks/torch2cuda}
check_dir "$dir"
gpu_setup
"$bin" tasks check-gpu "$dir" --build-only -j "$jobs" --json "$OUT/torch-build.json" > "$OUT/torch-build.txt" 2>&1

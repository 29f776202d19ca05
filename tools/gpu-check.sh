#!/usr/bin/env bash
# The device-machine jobs, one script each under tools/gpu/ (run from a working tree that carries
# build/gpu-bundle, made here by tools/bundle-gpu.sh; every output under $OUT, ./gpu-out when unset).
# Usage: tools/gpu-check.sh [JOB [ARGS...]]   (JOB defaults to smoke)
#        tools/gpu-check.sh --help            lists the jobs; tools/gpu-check.sh JOB --help describes one
# tools/gpu-run.sh runs several jobs in one device call.
set -uo pipefail
jobs_dir=$(cd "$(dirname "$0")/gpu" && pwd)
list_jobs() {
  sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'
  echo
  echo "Jobs:"
  local f
  for f in "$jobs_dir"/*.sh; do
    [ "$(basename "$f")" = common.sh ] && continue
    printf '  %-16s %s\n' "$(basename "$f" .sh)" "$(sed -n 3p "$f" | sed 's/^# *//')"  # line 3: one-line summary
  done
  printf '  %-16s %s\n' serve-resume "serve --resume build/serve-load: finishes a stopped serve run."
}
job=${1:-smoke}
[ $# -gt 0 ] && shift
case "$job" in
  -h|--help|help) list_jobs; exit 0 ;;
  serve-resume) exec bash "$jobs_dir/serve.sh" --resume build/serve-load "$@" ;;
esac
if [[ ! $job =~ ^[a-z][a-z-]*$ ]] || [ ! -f "$jobs_dir/$job.sh" ]; then
  echo "gpu-check: unknown job '$job'" >&2
  list_jobs >&2
  exit 2
fi
exec bash "$jobs_dir/$job.sh" "$@"

#!/usr/bin/env bash
# The `cudaperf analyze` output of every C-to-CUDA implementation in data/tasks, one set of files per
# implementation, to check that a change to src/analysis leaves the analysis unchanged: record with
# the old binary, record with the new one, `diff -r` the two folders (empty when nothing changed).
#   bash bench/analysis_snapshot.sh [-j N] CUDAPERF OUTDIR
# For data/tasks/c2cuda/FAMILY/TASK/impls/IMPL.cu it writes OUTDIR/FAMILY/TASK/IMPL.json (analyze
# --json --task FAMILY/TASK), IMPL.txt (the text report) and IMPL.status (both exit codes, then
# stderr). Paths in the reports are relative to the repository root, so two runs compare whole.
# Needs nvcc (no GPU). -j N runs N implementations at a time (default 1).
set -euo pipefail
jobs=1
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
[ $# -eq 2 ] || { echo "usage: $0 [-j N] CUDAPERF OUTDIR" >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
cd "$(dirname "$0")/.."
[ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }

one() {  # one implementation: BIN OUT FILE
  local bin=$1 out=$2 cu=$3
  local rel=${cu#data/tasks/c2cuda/}
  local fam=${rel%%/*} rest=${rel#*/}
  local task=${rest%%/*} impl
  impl=$(basename "$cu" .cu)
  local dir="$out/$fam/$task"
  mkdir -p "$dir"
  local rc_json=0 rc_text=0
  "$bin" analyze --json --task "$fam/$task" --root data/tasks "$cu" >"$dir/$impl.json" 2>"$dir/$impl.err.json" || rc_json=$?
  "$bin" analyze --task "$fam/$task" --root data/tasks "$cu" >"$dir/$impl.txt" 2>"$dir/$impl.err.txt" || rc_text=$?
  { echo "json exit $rc_json"; echo "text exit $rc_text"; cat "$dir/$impl.err.json" "$dir/$impl.err.txt"; } >"$dir/$impl.status"
  rm -f "$dir/$impl.err.json" "$dir/$impl.err.txt"
}
export -f one

find data/tasks/c2cuda -path '*/impls/*.cu' | LC_ALL=C sort |
  xargs -P "$jobs" -I{} bash -c 'one "$@"' _ "$bin" "$out" {}
n=$(find "$out" -name '*.json' | wc -l)
bad=$(find "$out" -name '*.status' -exec awk 'FNR <= 2 && !/ exit 0$/ { print FILENAME; nextfile }' {} + | wc -l)
echo "analysis_snapshot: $n implementation(s) recorded in $out; $bad with a non-zero exit (see *.status)"

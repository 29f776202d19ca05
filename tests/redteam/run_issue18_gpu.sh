#!/usr/bin/env bash
# The issue-18 GPU red-team rows in one go, for the device machine: every tests/redteam/*.cu whose
# first line says "issue 18" through tests/check_redteam.sh, then tests/check_redteam_group.sh;
# one JSON record per row (expected verdicts, pass/fail, seconds, the check's output) in
# $OUT/redteam-issue18.json, and a line per row on stdout.
# Usage: tests/redteam/run_issue18_gpu.sh [CUDAPERF] (default build/ci/cudaperf), from the repository root.
set -uo pipefail
bin=${1:-build/ci/cudaperf}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${OUT:-.}
mkdir -p "$out"
records=$(mktemp)
cache=${CUDAPERF_CACHE_DIR:-$(mktemp -d)}  # builds of the rows: not under $OUT
trap 'rm -f "$records"' EXIT
run() {  # name expect command...
  local name=$1 expect=$2 t0 rc log
  shift 2
  t0=$(date +%s%N)
  log=$("$@" 2>&1)
  rc=$?
  python3 -c 'import json,sys; print(json.dumps({"row": sys.argv[1], "expect": sys.argv[2], "rc": int(sys.argv[3]),
    "result": {0: "pass", 77: "skipped"}.get(int(sys.argv[3]), "FAIL"), "seconds": round(float(sys.argv[4]), 1),
    "output": sys.argv[5][-6000:]}))' "$name" "$expect" "$rc" "$(( ($(date +%s%N) - t0) / 1000000 ))e-3" "$log" >>"$records"
  printf '%-28s %-6s expect %s\n' "$name" "$( [ $rc -eq 0 ] && echo pass || { [ $rc -eq 77 ] && echo skip || echo FAIL; })" "$expect"
}
for f in "$here"/*.cu; do
  head -1 "$f" | grep -q 'issue 18' || continue
  run "$(basename "$f" .cu)" "$(sed -n 's|^// expect: *||p' "$f" | head -1)" \
    env CUDAPERF_CACHE_DIR="$cache" bash "$repo/tests/check_redteam.sh" "$bin" "$f" "$repo/data/tasks"
done
run group_sabotage "honest impls ok after the group attackers" \
  env CUDAPERF_CACHE_DIR="$cache" bash "$repo/tests/check_redteam_group.sh" "$bin" "$here" "$repo/data/tasks"
python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; json.dump({"rows": rows, "failed": sum(r["result"]=="FAIL" for r in rows)}, open(sys.argv[2], "w"), indent=1)' \
  "$records" "$out/redteam-issue18.json"
echo "wrote $out/redteam-issue18.json"

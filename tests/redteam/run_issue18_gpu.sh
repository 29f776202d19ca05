#!/usr/bin/env bash
# The issue-18 GPU red-team rows in one go, for the device machine: every tests/redteam/*.cu whose
# first line says "issue 18" through tests/check_redteam.sh, then tests/check_redteam_group.sh;
# one JSON record per row (expected verdicts, pass/fail, seconds, the check's output) in
# $OUT/redteam-issue18.json, and a line per row on stdout. As tools/gpu-check.sh's redteam job,
# saxpy's perf config is shrunk to 2^25 elements (a copy of the task) so all rows fit in one call;
# the rows size their paddings and floors from n.
# Usage: tests/redteam/run_issue18_gpu.sh [CUDAPERF] from the repository root (default: the GPU
# bundle's build/gpu-bundle/cudaperf, with its libraries, as tools/gpu-check.sh runs it).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${1:-$repo/build/gpu-bundle/cudaperf}
export LD_LIBRARY_PATH="$repo/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
out=${OUT:-.}
mkdir -p "$out"
records=$(mktemp)
cache=${CUDAPERF_CACHE_DIR:-$(mktemp -d)}  # builds of the rows: not under $OUT
root=$(mktemp -d)/tasks
trap 'rm -f "$records"; rm -rf "$(dirname "$root")"' EXIT
mkdir -p "$root/c2cuda/elementwise" && cp -r "$repo/data/tasks/c2cuda/elementwise/saxpy" "$root/c2cuda/elementwise/"
sed -i 's/{ name = "perf", n = 400000000 }/{ name = "perf", n = 33554432 }/' "$root/c2cuda/elementwise/saxpy/task.toml"
grep -q 'n = 33554432' "$root/c2cuda/elementwise/saxpy/task.toml" || { echo "cannot shrink saxpy's perf config"; exit 2; }
run() {  # name expect command...
  local name=$1 expect=$2 t0 rc log
  shift 2
  t0=$(date +%s%N)
  log=$(timeout "${ROW_LIMIT:-240}" "$@" 2>&1)  # 124: the row ran past ROW_LIMIT seconds
  rc=$?
  python3 -c 'import json,sys; print(json.dumps({"row": sys.argv[1], "expect": sys.argv[2], "rc": int(sys.argv[3]),
    "result": {0: "pass", 77: "skipped", 124: "FAIL (timed out)"}.get(int(sys.argv[3]), "FAIL"), "seconds": round(float(sys.argv[4]), 1),
    "output": sys.argv[5][-6000:]}))' "$name" "$expect" "$rc" "$(( ($(date +%s%N) - t0) / 1000000 ))e-3" "$log" >>"$records"
  printf '%-28s %-6s expect %s\n' "$name" "$( [ $rc -eq 0 ] && echo pass || { [ $rc -eq 77 ] && echo skip || echo FAIL; })" "$expect"
}
for f in "$here"/*.cu; do
  head -1 "$f" | grep -q 'issue 18' || continue
  run "$(basename "$f" .cu)" "$(sed -n 's|^// expect: *||p' "$f" | head -1)" \
    env CUDAPERF_CACHE_DIR="$cache" bash "$repo/tests/check_redteam.sh" "$bin" "$f" "$root"
done
run group_sabotage "honest impls ok after the group attackers" \
  env CUDAPERF_CACHE_DIR="$cache" bash "$repo/tests/check_redteam_group.sh" "$bin" "$here" "$root"
python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; json.dump({"rows": rows, "failed": sum(r["result"].startswith("FAIL") for r in rows)}, open(sys.argv[2], "w"), indent=1)' \
  "$records" "$out/redteam-issue18.json"
echo "wrote $out/redteam-issue18.json"

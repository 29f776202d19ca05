#!/usr/bin/env bash
# The trust checks of the GPU verdict (docs/threat-model.md) on the GPU machine, over a working tree
# that carries build/gpu-bundle (tools/bundle-gpu.sh). Writes JSON and logs under $OUT.
#   tools/gpu-trust.sh smoke              one dataset impl of saxpy through eval (a quick end-to-end check)
#   tools/gpu-trust.sh redteam            every tests/redteam/*.cu through eval on a saxpy with a 2^25 perf
#                                         config, then the group-sabotage check; redteam.json
#   tools/gpu-trust.sh dataset DIR...     tasks check-gpu over the folders; records.jsonl, dataset.txt
# Usage: tools/gpu-trust.sh MODE [ARGS] [-- MODE [ARGS] ...] runs modes in a row.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-/tmp/cudaperf-cache}
bin=$PWD/build/gpu-bundle/cudaperf
nvidia-smi --query-gpu=name,driver_version,compute_mode,clocks.sm,clocks.max.sm --format=csv > "$OUT/device.csv" 2>&1
small_saxpy() {  # a copy of saxpy with a 2^25-element perf config (the rows fit in one call)
  local rt; rt=$(mktemp -d)/tasks
  python3 tools/gpu/small_task.py data/tasks/c2cuda/elementwise/saxpy "$rt" --config perf --set n=33554432 || return 1
  echo "$rt"
}
run_mode() {
  local mode=$1; shift
  case "$mode" in
    smoke)
      rt=$(small_saxpy) || return 1
      for im in vectorized naive; do
        "$bin" eval --root "$rt" --task elementwise/saxpy --candidate "data/tasks/c2cuda/elementwise/saxpy/impls/$im.cu" \
          --json > "$OUT/smoke-$im.json" 2> "$OUT/smoke-$im.log"; echo "smoke $im: exit $?"
      done ;;
    redteam)
      rt=$(small_saxpy) || return 1
      : > "$OUT/redteam.jsonl"
      for f in tests/redteam/*.cu; do
        t0=$(date +%s.%N)
        out=$(timeout 120 "$bin" eval --root "$rt" --task elementwise/saxpy --candidate "$f" --time-budget "${TIME_BUDGET:-1}" --json 2>/dev/null)
        python3 - "$f" "$t0" "$out" >> "$OUT/redteam.jsonl" <<'PY'
import json, sys, time, re
f, t0, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
want = next((l.split("expect:", 1)[1].strip() for l in open(f) if l.startswith("// expect:")), "")
try:
    j = json.loads(out); got = j["verdict"]; msg = (j.get("message") or "").splitlines()[0][:200] if j.get("message") else ""
except Exception as e:
    got, msg = "no-json", out[-300:]
verdicts = want.split(" ")[0].split("|")
needle = want[len(want.split(" ")[0]):].strip()
ok = got in verdicts and (not needle or needle in out)
print(json.dumps({"row": f.rsplit("/", 1)[1][:-3], "want": want, "got": got, "pass": ok, "message": msg, "s": round(time.time() - t0, 1)}))
PY
        tail -n 1 "$OUT/redteam.jsonl" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print(("pass" if r["pass"] else "FAIL"), r["row"], r["got"], "|", r["message"][:120])'
      done
      if [ -f tests/check_redteam_group.sh ]; then
        timeout 300 bash tests/check_redteam_group.sh "$bin" tests/redteam "$rt" > "$OUT/group.log" 2>&1; echo "group_sabotage: exit $?"
      fi ;;
    dataset)
      for d in "$@"; do
        start=$(date +%s)
        "$bin" tasks check-gpu "$d" --time-budget "${TIME_BUDGET:-1}" --records "$OUT/records.jsonl" \
          --json "$OUT/check-$(basename "$d").json" 2>> "$OUT/dataset.log" | tee -a "$OUT/dataset.txt" | tail -n 3
        echo "$d wall seconds: $(( $(date +%s) - start ))" | tee -a "$OUT/dataset.txt"
      done ;;
    *) echo "unknown mode $mode" >&2; return 2 ;;
  esac
}
args=("$@"); i=0
while [ $i -lt ${#args[@]} ]; do
  mode=${args[$i]}; i=$((i + 1)); margs=()
  while [ $i -lt ${#args[@]} ] && [ "${args[$i]}" != "--" ]; do margs+=("${args[$i]}"); i=$((i + 1)); done
  i=$((i + 1))
  echo "== $mode ${margs[*]}"; run_mode "$mode" "${margs[@]}"
done

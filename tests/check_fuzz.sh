#!/usr/bin/env bash
# CI: builds the libFuzzer targets (preset `fuzz`, targets only) and runs each one for SECONDS
# (default 60) over a copy of its kept corpus fuzz/corpus/NAME/ (the kept corpus is not written),
# several at a time. Fails when any target crashes, leaks, hangs or trips UBSan; the failing
# input is printed (base64) so that it can be replayed: build/fuzz/fuzz_NAME INPUT.
#   tests/check_fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
targets=$(sed -n 's/^set(CUDAPERF_FUZZ_TARGETS \(.*\))$/\1/p' fuzz/CMakeLists.txt)
[[ -n $targets ]] || { echo "no fuzz targets found in fuzz/CMakeLists.txt" >&2; exit 1; }
for name in $targets; do
  [[ -d fuzz/corpus/$name ]] || { echo "fuzz target $name has no corpus fuzz/corpus/$name/" >&2; exit 1; }
done

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target fuzzers

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# One target: its log in $tmp/NAME.log, exit status in $tmp/NAME.rc.
run_one() {
  local name=$1 dir=$tmp/$1
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -r "fuzz/corpus/$name/." "$dir/corpus/"
  local rc=0
  "build/fuzz/fuzz_$name" -max_total_time="$secs" -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" > "$tmp/$name.log" 2>&1 || rc=$?
  echo "$rc" > "$tmp/$name.rc"
}
export -f run_one
export tmp secs
start=$(date +%s)
# libFuzzer runs one thread per target: as many targets at once as there are cores.
printf '%s\n' $targets | xargs -P "$(nproc)" -I{} bash -c 'run_one {}'

failed=0
for name in $targets; do
  rc=$(cat "$tmp/$name.rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$name.log")
  inputs=$(find "fuzz/corpus/$name" -type f | wc -l)
  if [[ $rc == 0 ]]; then
    echo "fuzz $name: ok, ${execs:-?} inputs run in ${secs} s (kept corpus: $inputs)"
    continue
  fi
  failed=1
  echo "fuzz $name: FAILED (exit $rc)"
  grep -v '^#[0-9]' "$tmp/$name.log" | tail -60
  for a in "$tmp/$name/artifacts"/*; do
    [[ -f $a ]] || continue
    echo "failing input $(basename "$a") ($(stat -c %s "$a") bytes), base64:"
    head -c 65536 "$a" | base64 -w 100
  done
done
echo "fuzzing took $(( $(date +%s) - start )) s"
exit "$failed"

#!/usr/bin/env bash
# redteam
# Every tests/redteam/*.cu row through tests/check_redteam.sh: pass or fail per row, and the counts.
#   The runner is ctest's: each file's "// expect:" line is the verdict it must get. The task is a
#   copy of elementwise/saxpy whose perf config has 2^25 elements instead of 4e8
#   (tools/gpu/small_task.py), so that all rows fit in one device call. Exits 1 when a row fails.
# Writes under $OUT: redteam.txt (a line per row: pass, FAIL or skip and the expected verdict, then
# the counts), redteam.log (the runner's output for every failed row), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
no_arguments "$@"
gpu_setup
rt=$(mktemp -d)/tasks
python3 tools/gpu/small_task.py data/tasks/c2cuda/elementwise/saxpy "$rt" --config perf --set n=33554432 \
  || die "cannot make the small saxpy"
: > "$OUT/redteam.txt"; : > "$OUT/redteam.log"
pass=0 fail=0 skip=0
for f in tests/redteam/*.cu; do
  name=$(basename "$f" .cu)
  want=$(sed -n 's|^// expect: *||p' "$f" | head -1)
  log=$(bash tests/check_redteam.sh "$PWD/$bin" "$f" "$rt" 2>&1)
  case $? in
    0) result=pass; pass=$((pass + 1)) ;;
    77) result=skip; skip=$((skip + 1)) ;;
    *) result=FAIL; fail=$((fail + 1)); printf '== %s\n%s\n' "$name" "$log" >> "$OUT/redteam.log" ;;
  esac
  why=$(grep -m1 '^FAIL:' <<<"$log")
  printf '%-26s %-4s want %s%s\n' "$name" "$result" "$want" "${why:+   ($why)}" | tee -a "$OUT/redteam.txt"
done
echo "redteam: $pass passed, $fail failed, $skip skipped of $((pass + fail + skip))" | tee -a "$OUT/redteam.txt"
[ "$fail" -eq 0 ]

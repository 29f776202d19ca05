#!/usr/bin/env bash
# import-kernelbench on fixture problem files: tasks appear with the file's own sizes as the perf
# config, reference.py unchanged, no impls; they validate; a non-problem file is skipped.
set -uo pipefail
bin=$1 fixtures=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
out="$tmp/tasks/torch2cuda/kernelbench"
"$bin" import-kernelbench "$fixtures" --out "$out" > "$tmp/log" 2>&1 || { echo "FAIL: import exit $?"; cat "$tmp/log"; status=1; }
grep -q "2 imported, 1 skipped, 0 failed" "$tmp/log" || { echo "FAIL: counts"; cat "$tmp/log"; status=1; }
t="$out/l1_19_relu"
cmp -s "$fixtures/level1/19_ReLU.py" "$t/reference.py" || { echo "FAIL: reference.py differs from the file"; status=1; }
grep -q 'id = "torch2cuda/kernelbench/l1_19_relu"' "$t/task.toml" || { echo "FAIL: id"; cat "$t/task.toml"; status=1; }
grep -q '{ name = "perf", batch_size = 16, dim = 1000 }' "$t/task.toml" || { echo "FAIL: perf config"; cat "$t/task.toml"; status=1; }
l="$out/l1_40_scaled_linear/task.toml"
grep -q 'in_features = 64, out_features = 32, scale = 0.5 }' "$l" && ! grep -q unused_constant "$l" || { echo "FAIL: linear config"; cat "$l"; status=1; }
grep -q 'source = "kernelbench"' "$l" || { echo "FAIL: source"; status=1; }
# importing again without --force skips
"$bin" import-kernelbench "$fixtures" --out "$out" 2>&1 | grep -q "0 imported, 3 skipped" || { echo "FAIL: re-import should skip"; status=1; }
"$bin" tasks validate "$tmp/tasks" > "$tmp/val" 2>&1 || { echo "FAIL: imported tasks do not validate"; cat "$tmp/val"; status=1; }
tail -1 "$tmp/val" | grep -q "validate: OK" || status=1
"$bin" tasks show torch2cuda/kernelbench/l1_19_relu --root "$tmp/tasks" | grep -q "batch_size=16" || { echo "FAIL: show"; status=1; }
"$bin" tasks list --root "$tmp/tasks" | grep -q "torch2cuda/kernelbench/l1_40_scaled_linear" || { echo "FAIL: list"; status=1; }
# --out must be .../torch2cuda/<category>
"$bin" import-kernelbench "$fixtures" --out "$tmp/elsewhere" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --out should exit 2"; status=1; }
exit $status

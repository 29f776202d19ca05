#!/usr/bin/env bash
# import-kernelbench on fixture problem files: tasks appear with the file's own sizes as the perf
# config and a derived "tiny" config, reference.py unchanged, no impls; they validate; a non-problem
# file is skipped; --out may be any folder (it becomes a dataset root).
set -uo pipefail
bin=$1 fixtures=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
out="$tmp/tasks/torch2cuda/kernelbench"
"$bin" import-kernelbench "$fixtures/level1" --out "$out" > "$tmp/log" 2>&1 || { echo "FAIL: import exit $?"; cat "$tmp/log"; status=1; }
grep -q "4 imported, 1 skipped, 0 failed" "$tmp/log" || { echo "FAIL: counts"; cat "$tmp/log"; status=1; }
t="$out/l1_19_relu"
cmp -s "$fixtures/level1/19_ReLU.py" "$t/reference.py" || { echo "FAIL: reference.py differs from the file"; status=1; }
grep -q 'id = "torch2cuda/kernelbench/l1_19_relu"' "$t/task.toml" || { echo "FAIL: id"; cat "$t/task.toml"; status=1; }
grep -q '{ name = "perf", batch_size = 16, dim = 1000 }' "$t/task.toml" || { echo "FAIL: perf config"; cat "$t/task.toml"; status=1; }
# the small config: the size constants scaled down (both are >= 16), so the null battery can run
grep -qE '\{ name = "tiny", batch_size = [0-9]+, dim = [0-9]+ \}' "$t/task.toml" || { echo "FAIL: tiny config"; cat "$t/task.toml"; status=1; }
grep -q '# perf: the file.s own sizes; tiny: derived by import-kernelbench' "$t/task.toml" || { echo "FAIL: tiny note"; cat "$t/task.toml"; status=1; }
l="$out/l1_40_scaled_linear/task.toml"
grep -q 'in_features = 64, out_features = 32, scale = 0.5 }' "$l" && ! grep -q unused_constant "$l" || { echo "FAIL: linear config"; cat "$l"; status=1; }
grep -q 'source = "kernelbench"' "$l" || { echo "FAIL: source"; status=1; }
# importing again without --force skips
"$bin" import-kernelbench "$fixtures/level1" --out "$out" 2>&1 | grep -q "0 imported, 5 skipped" || { echo "FAIL: re-import should skip"; status=1; }
"$bin" tasks validate "$tmp/tasks" > "$tmp/val" 2>&1 || { echo "FAIL: imported tasks do not validate"; cat "$tmp/val"; status=1; }
tail -1 "$tmp/val" | grep -q "validate: OK" || status=1
"$bin" tasks show torch2cuda/kernelbench/l1_19_relu --root "$tmp/tasks" | grep -q "batch_size=16" || { echo "FAIL: show"; status=1; }
"$bin" tasks list --root "$tmp/tasks" | grep -q "torch2cuda/kernelbench/l1_40_scaled_linear" || { echo "FAIL: list"; status=1; }
# --out may be any folder: it is a dataset root (tasks in DIR/torch2cuda/<category>), validated as such
"$bin" import-kernelbench "$fixtures/level1/19_ReLU.py" --out "$tmp/elsewhere" > "$tmp/log2" 2>&1 || { echo "FAIL: --out elsewhere"; cat "$tmp/log2"; status=1; }
[ -f "$tmp/elsewhere/torch2cuda/kernelbench/l1_19_relu/task.toml" ] || { echo "FAIL: --out elsewhere layout"; cat "$tmp/log2"; status=1; }
"$bin" import-kernelbench "$fixtures/level1/19_ReLU.py" --out "$tmp/other" --category mine > /dev/null 2>&1
grep -q 'id = "torch2cuda/mine/l1_19_relu"' "$tmp/other/torch2cuda/mine/l1_19_relu/task.toml" || { echo "FAIL: --category"; status=1; }
"$bin" tasks validate "$tmp/elsewhere" 2>&1 | tail -1 | grep -q "validate: OK" || { echo "FAIL: --out elsewhere does not validate"; status=1; }
"$bin" import-kernelbench "$fixtures/level1" --out "$tmp/x" --category "Bad Name" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: a bad --category should exit 2"; status=1; }
exit $status

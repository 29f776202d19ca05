#!/usr/bin/env bash
# One torch red-team candidate (tests/redteam/torch/*.py) against the leaky_relu fixture task (or its
# "# task:" line's, under the "# root:" line's folder of tests/data when it has one): its
# "# expect:" line names the verdict (and a substring of the message). "# runs-on: cpu" rows are
# decided by the static guards (any machine); the others need a GPU (and torch) and exit 77 without.
set -uo pipefail
bin=$1 file=$2 root=$3
expect=$(sed -n 's|^# expect: *||p' "$file" | head -1)
verdict=${expect%% *}
needle=""
[ "$expect" != "$verdict" ] && needle=${expect#* }
args=()
if grep -q '^# runs-on: cpu' "$file"; then args=(--no-gpu); else
  if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then echo "needs a GPU: skipping"; exit 77; fi
  "${CUDAPERF_PYTHON:-python3}" -c "import torch" 2>/dev/null || { echo "needs torch (CUDAPERF_PYTHON): skipping"; exit 77; }
fi
task=$(sed -n 's|^# task: *||p' "$file" | head -1)
other=$(sed -n 's|^# root: *||p' "$file" | head -1)
[ -n "$other" ] && root="$(dirname "$root")/$other"
out=$("$bin" eval --root "$root" --task "${task:-torch2cuda/elementwise/leaky_relu}" --candidate "$file" --json --time-budget 0.5 "${args[@]}" 2>&1)
got=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["verdict"])' <<<"$out" 2>/dev/null)
status=0
case "|$verdict|" in *"|$got|"*) ;; *) echo "FAIL: expected verdict $verdict, got '${got}'"; status=1 ;; esac
if [ -n "$needle" ] && ! grep -qF -- "$needle" <<<"$out"; then echo "FAIL: message lacks: $needle"; status=1; fi
[ $status -ne 0 ] && echo "$out" | head -40
exit $status

#!/usr/bin/env bash
# One red-team candidate (tests/redteam/*.cu) against elementwise/saxpy: its "// expect:" line names
# the verdict (and optionally a substring of the message) it must get. Candidates whose verdict
# needs a GPU exit 77 (skipped) where none is visible.
set -uo pipefail
bin=$1 file=$2 root=$3
expect=$(sed -n 's|^// expect: *||p' "$file" | head -1)
verdict=${expect%% *}
needle=""
[ "$expect" != "$verdict" ] && needle=${expect#* }
args=()
case "$verdict" in
  link_error|compile_error) args=(--no-gpu) ;;
  *) if grep -q '^// runs-on: cpu' "$file"; then args=(--no-gpu); else
     if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
       echo "needs a GPU: skipping"; exit 77
     fi; fi ;;
esac
out=$("$bin" eval --root "$root" --task elementwise/saxpy --candidate "$file" --json "${args[@]}" 2>&1)
got=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["verdict"])' <<<"$out" 2>/dev/null)
status=0
# "a|b" accepts either verdict (where the escape may be caught by more than one check).
case "|$verdict|" in *"|$got|"*) ;; *) echo "FAIL: expected verdict $verdict, got '${got}'"; status=1 ;; esac
if [ -n "$needle" ] && ! grep -qF -- "$needle" <<<"$out"; then echo "FAIL: message lacks: $needle"; status=1; fi
[ $status -ne 0 ] && echo "$out"
exit $status

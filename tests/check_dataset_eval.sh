#!/usr/bin/env bash
# No false positives: every dataset implementation, evaluated as a candidate with --no-gpu, must
# pass the link allowlist and the confined host-side run (exit 3: CPU side passed, GPU skipped).
set -uo pipefail
bin=$1 root=$2
fails=$(find "$root/c2cuda" -path '*/impls/*.cu' | sort | xargs -P "$(nproc)" -I{} sh -c '
  f={}; t=$(echo "$f" | sed "s|.*/c2cuda/||; s|/impls/.*||")
  out=$("$0" eval --root "$1" --task "$t" --candidate "$f" --no-gpu 2>&1); rc=$?
  if [ $rc -ne 3 ]; then echo "FAIL $f (exit $rc): $(echo "$out" | grep -E "^(verdict|message)" | tr "\n" " ")"; fi
' "$bin" "$root")
n=$(find "$root/c2cuda" -path '*/impls/*.cu' | wc -l)
if [ -n "$fails" ]; then echo "$fails"; echo "$(echo "$fails" | wc -l) of $n implementations rejected"; exit 1; fi
echo "all $n dataset implementations pass the link allowlist and the confined host-side run"

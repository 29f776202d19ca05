#!/usr/bin/env bash
# Data-driven check of one malformed task folder: `cudaperf tasks validate DIR` must fail and its
# output must contain every line of DIR/expected.txt (each a message a person can act on).
set -u
bin=$1 dir=$2
out=$("$bin" tasks validate "$dir" --reference-timeout 3 2>&1)
rc=$?
status=0
if [ "$rc" -eq 0 ]; then
  echo "FAIL: validate exited 0 for $dir"; status=1
fi
while IFS= read -r want; do
  [ -z "$want" ] && continue
  if ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL: expected message not found: $want"; status=1
  fi
done < "$dir/expected.txt"
if [ $status -ne 0 ]; then echo "--- output (exit $rc) ---"; echo "$out"; fi
exit $status

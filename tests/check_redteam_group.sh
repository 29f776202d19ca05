#!/usr/bin/env bash
# Cross-candidate sabotage (issue 18 class 3): one `tasks check-gpu` run of a copy of
# elementwise/saxpy into which every red-team row marked "// group: attacker" is dropped as an
# implementation named so that it runs first (aaa<k>_<row>; check-gpu runs the non-naive
# implementations by name, naive last). In that same run the task's own implementations must stay
# ok at every config, and no attacker may be ok. Needs a GPU (exit 77 without one).
# Usage: check_redteam_group.sh CUDAPERF REDTEAM_DIR TASKS_ROOT
set -uo pipefail
bin=$1 redteam=$2 root=$3
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "needs a GPU: skipping"; exit 77
fi
src=$root/c2cuda/elementwise/saxpy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
task=$tmp/tasks/c2cuda/elementwise/saxpy
mkdir -p "$(dirname "$task")" && cp -r "$src" "$task" || { echo "FAIL: cannot copy $src"; exit 1; }

honest=()
for f in "$src"/impls/*.cu; do honest+=("$(basename "$f" .cu)"); done
attackers=()
k=0
for f in "$redteam"/*.cu; do
  grep -q '^// group: attacker' "$f" || continue
  row=$(basename "$f" .cu)
  strategy="aaa${k}_${row}"
  # A task's implementation is one file whose first line names its strategy: the row, with the
  # shared attacker.h written in place of its #include (so the source rules see all of it).
  { echo "// strategy: ${strategy} — red-team attacker tests/redteam/${row}.cu, evaluated before the honest implementations"
    awk -v header="$redteam/attacker.h" '/^#include "attacker.h"/ { while ((getline l < header) > 0) if (l !~ /^#pragma once/) print l; next } { print }' "$f"
  } > "$task/impls/$strategy.cu"
  attackers+=("$strategy")
  k=$((k + 1))
done
[ ${#attackers[@]} -gt 0 ] || { echo "FAIL: no row in $redteam is marked '// group: attacker'"; exit 1; }
echo "attackers: ${attackers[*]}; honest: ${honest[*]}"

"$bin" tasks check-gpu "$tmp/tasks" --json "$tmp/result.json" --time-budget 0.5 >"$tmp/log" 2>&1
if [ ! -s "$tmp/result.json" ]; then echo "FAIL: check-gpu wrote no JSON"; cat "$tmp/log"; exit 1; fi

python3 - "$tmp/result.json" "${#attackers[@]}" "${attackers[@]}" "${honest[@]}" <<'EOF'
import json, sys
path, n_att = sys.argv[1], int(sys.argv[2])
attackers, honest = sys.argv[3:3 + n_att], sys.argv[3 + n_att:]
tasks = json.load(open(path))["tasks"]
rows = [r for t in tasks for r in t["results"]]
bad = []
for name in honest:
    mine = [r for r in rows if r["impl"] == name]
    if not mine:
        bad.append(f"{name}: no results")
    for r in mine:
        if r["status"] != "ok":
            bad.append(f"{name} @{r['config']}: {r['status']}: {r['message']}")
for name in attackers:
    mine = [r for r in rows if r["impl"] in (name, "*")]
    statuses = sorted({r["status"] for r in mine})
    print(f"{name}: {', '.join(statuses) or 'no results'}")
    if not mine or all(r["status"] == "ok" for r in mine):
        bad.append(f"{name}: the attacker was ok (or has no results)")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF
status=$?
[ $status -ne 0 ] && cat "$tmp/log"
exit $status

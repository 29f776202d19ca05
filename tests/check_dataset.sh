#!/usr/bin/env bash
# `cudaperf tasks validate` on the dataset must pass, and the dataset must meet its size bars.
set -uo pipefail
bin=$1 root=$2
json=$(mktemp)
"$bin" tasks validate "$root" --json "$json"
rc=$?
python3 - "$json" <<'PY' || rc=1
import json, sys
j = json.load(open(sys.argv[1]))
all_tasks = [t for t in j["tasks"] if "id" in t]
# size bars are for the C-to-CUDA tasks; torch2cuda tasks (docs/torch2cuda.md) are counted apart
tasks = [t for t in all_tasks if t.get("kind", "c2cuda") == "c2cuda"]
torch_tasks = [t for t in all_tasks if t.get("kind") == "torch2cuda"]
cats = {t["category"] for t in tasks}
coop = sum(t["cooperative"] for t in tasks)
problems = []
if len(tasks) < 60: problems.append(f"{len(tasks)} tasks < 60")
if len(cats) < 12: problems.append(f"{len(cats)} categories < 12")
if coop < 25: problems.append(f"{coop} cooperative tasks < 25")
for t in tasks:
    if t["impls"] < 3: problems.append(f"{t['id']}: {t['impls']} impls < 3")
    if t["configs"] < 3: problems.append(f"{t['id']}: {t['configs']} configs < 3")
    for name, n in t.get("nulls", {}).items():
        if n["configs_rejected"] == 0: problems.append(f"{t['id']}: null '{name}' not rejected")
print(f"dataset bars (c2cuda): {len(tasks)} tasks, {len(cats)} categories, {coop} cooperative", "OK" if not problems else "FAILED")
print(f"torch2cuda: {len(torch_tasks)} tasks in {len({t['category'] for t in torch_tasks})} categories")
for p in problems: print("  -", p)
sys.exit(1 if problems else 0)
PY
rm -f "$json"
exit $rc

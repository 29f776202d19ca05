#!/usr/bin/env bash
# issue 24 / issue 18 (8) on the GPU machine: the torch2cuda trust model end to end. Run from the
# repository root over a working tree that carries build/gpu-bundle (tools/bundle-gpu.sh), like
# tools/gpu-check.sh. Writes under $OUT:
#   torch-trust-redteam.json  every tests/redteam/torch row: expected and actual verdict, pass/fail
#   torch-trust-dataset.json  `tasks check-gpu` over a sample of dataset tasks (no honest impl flagged)
#   torch-trust.json          the summary (counts, failures, the build's confinement, stage times)
#   torch-trust.log           stderr of every run
# TRUST_TASKS overrides the dataset sample (space-separated task folders).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-/tmp/cudaperf-cache}
export CUDAPERF_PYTHON_DIR="$PWD/python"
export CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
export CUDAPERF_CONFINE_LIB=${CUDAPERF_CONFINE_LIB:-$PWD/build/gpu-bundle/libcudaperf_confine.so}
bin=${CUDAPERF_BIN:-build/gpu-bundle/cudaperf}
log="$OUT/torch-trust.log"
: > "$log"
# 1. the red team: rows with a "# task:" line run against that fixture task, the others against leaky_relu
rows=()
for f in tests/redteam/torch/*.py; do
  task=$(sed -n 's|^# task: *||p' "$f" | head -1)
  task=${task:-torch2cuda/elementwise/leaky_relu}
  out="$OUT/rt-$(basename "$f" .py).json"
  timeout 900 "$bin" eval --root tests/data/torch_tasks --task "$task" --candidate "$f" --json --time-budget 0.5 \
    > "$out" 2>> "$log"
  rows+=("$f" "$out")
done
python3 - "$OUT/torch-trust-redteam.json" "${rows[@]}" <<'PY'
import json, re, sys
out, args = sys.argv[1], sys.argv[2:]
res = []
for f, o in zip(args[::2], args[1::2]):
    text = open(f).read()
    want = re.search(r"^# expect: *(\S+)(?: (.*))?$", text, re.M)
    verdicts = want.group(1).split("|") if want else []
    needle = (want.group(2) or "") if want else ""
    try:
        r = json.load(open(o))
    except ValueError:
        r = {"verdict": "no_report", "message": open(o).read()[-400:]}
    ok = r.get("verdict") in verdicts and needle in r.get("message", "")
    res.append({"row": f, "expect": want.group(0)[9:] if want else "?", "verdict": r.get("verdict"), "pass": ok,
                "message": r.get("message", "")[:300], "build": r.get("build"), "stages": r.get("stages")})
json.dump(res, open(out, "w"), indent=1)
print(f"red team: {sum(x['pass'] for x in res)} of {len(res)} rows as expected")
for x in res:
    if not x["pass"]:
        print("  FAIL", x["row"], "expected", x["expect"], "got", x["verdict"], "|", x["message"][:160])
PY
# 2. a sample of the dataset: every honest impl must be ok
tasks=${TRUST_TASKS:-"data/tasks/torch2cuda/activations/elu data/tasks/torch2cuda/matmul/matmul data/tasks/torch2cuda/normalization/groupnorm"}
dj=()
for d in $tasks; do
  j="$OUT/ds-$(basename "$d").json"
  timeout 1500 "$bin" tasks check-gpu "$d" --time-budget "${TIME_BUDGET:-1}" --json "$j" >> "$log" 2>&1
  dj+=("$j")
done
python3 - "$OUT/torch-trust-dataset.json" "$OUT/torch-trust-redteam.json" "$OUT/torch-trust.json" "${dj[@]}" <<'PY'
import json, sys
out, rt, summary, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rows = []
for f in files:
    try:
        j = json.load(open(f))
    except (OSError, ValueError) as ex:
        rows.append({"file": f, "error": str(ex)})
        continue
    for t in j.get("torch_tasks", []):
        for r in t.get("results", []):
            rows.append({"task": t.get("task", t.get("id")), "candidate": r.get("candidate"), "verdict": r.get("verdict"),
                         "message": r.get("message", "")[:300], "speedup_vs_eager": r.get("speedup_vs_eager"),
                         "configs": [{k: c.get(k) for k in ("config", "status", "median_ms", "samples")}
                                     for c in r.get("configs", [])], "stages": r.get("stages")})
json.dump(rows, open(out, "w"), indent=1)
red = json.load(open(rt))
flagged = [r for r in rows if r.get("verdict") != "ok"]
s = {"redteam_rows": len(red), "redteam_as_expected": sum(x["pass"] for x in red),
     "redteam_failures": [x["row"] for x in red if not x["pass"]], "dataset_impls": len(rows),
     "dataset_ok": len(rows) - len(flagged), "dataset_flagged": flagged,
     "build_confinement": sorted({(x.get("build") or {}).get("confinement", "") for x in red} - {""})}
json.dump(s, open(summary, "w"), indent=1)
print(json.dumps({k: v for k, v in s.items() if k != "dataset_flagged"}), "flagged:", len(flagged))
PY

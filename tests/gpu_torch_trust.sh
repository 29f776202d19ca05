#!/usr/bin/env bash
# issue 24 / issue 18 (8) on the GPU machine: the torch2cuda trust model end to end. Run from the
# repository root over a working tree that carries build/gpu-bundle (tools/bundle-gpu.sh), like
# tools/gpu-check.sh. Writes under $OUT:
#   torch-trust-redteam.json  every tests/redteam/torch row: expected and actual verdict, pass/fail
#   torch-trust-dataset.json  `tasks check-gpu` over a sample of dataset tasks (no honest impl flagged)
#   torch-trust.json          the summary (counts, failures, the build's confinement, stage times)
#   torch-trust.log           stderr of every run
# TRUST_TASKS overrides the dataset sample (space-separated task folders); GROUP_LIMIT_S (420) and
# TASK_LIMIT_S (240) bound the red-team group run and each dataset task; ALONE_MAX (5) rows not as
# expected in the group are run again alone, each within ALONE_LIMIT_S (240).
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
work=$(mktemp -d)  # per-run reports (only the summaries go to $OUT: the device tool returns 8 files)
# 1. the red team, all rows in one run of their task (one reference worker, each candidate in its own
#    confined worker, in turn: a row that sabotages the run shows up in the rows after it); a row not
#    as expected there is run again alone (its "alone" field), so a group effect is told apart.
#    Rows with a "# task:" line run against that fixture task (under tests/data/<"# root:" line>, default
#    torch_tasks), the others against leaky_relu.
rows=()
declare -A by_task=()
for f in tests/redteam/torch/*.py; do
  task=$(sed -n 's|^# task: *||p' "$f" | head -1)
  root=$(sed -n 's|^# root: *||p' "$f" | head -1)
  by_task["tests/data/${root:-torch_tasks}|${task:-torch2cuda/elementwise/leaky_relu}"]+="$f "
done
for key in "${!by_task[@]}"; do
  read -r -a files <<<"${by_task[$key]}"
  root=${key%%|*} task=${key#*|}
  cands=(); for f in "${files[@]}"; do cands+=(--candidate "$f"); done
  group="$work/rt-group-$(echo "$task" | tr '/' '_').json"
  start=$(date +%s)
  timeout "${GROUP_LIMIT_S:-420}" "$bin" eval --root "$root" --task "$task" "${cands[@]}" --json --time-budget 0.5 \
    > "$group" 2>> "$log"
  echo "red-team group $task: ${#files[@]} rows, exit $?, $(( $(date +%s) - start )) s" >> "$log"
  for f in "${files[@]}"; do rows+=("$f" "$group" "$key"); done
done
python3 - "$OUT/torch-trust-redteam.json" "$bin" "$log" "${rows[@]}" <<'PY'
import json, os, re, subprocess, sys
out, binary, log, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
triples = list(zip(args[::3], args[1::3], args[2::3]))


def expectation(f):
    want = re.search(r"^# expect: *(\S+)(?: (.*))?$", open(f).read(), re.M)
    return (want.group(1).split("|"), want.group(2) or "", want.group(0)[9:]) if want else ([], "", "?")


def shows(rep, needle):
    """The row's evidence: its text in the message, or a stage of that name that happened (view_output_copy's
    candidate_worker_outputs_materialized is a count in the stages, not a message)."""
    return needle in rep.get("message", "") or bool((rep.get("stages") or {}).get(needle))


def load(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


groups = {}
res = []
alone_left = int(os.environ.get("ALONE_MAX", "5"))
alone_limit = float(os.environ.get("ALONE_LIMIT_S", "240"))
for f, g, key in triples:
    root, task = key.split("|", 1)
    if g not in groups:
        j = load(open(g).read())
        groups[g] = j if isinstance(j, list) else ([j] if isinstance(j, dict) else [])
    names = [f2 for f2, g2, _ in triples if g2 == g]
    rep = groups[g][names.index(f)] if names.index(f) < len(groups[g]) else {"verdict": "no_report", "message": "the group run gave no report"}
    verdicts, needle, text = expectation(f)
    ok = rep.get("verdict") in verdicts and shows(rep, needle)
    row = {"row": f, "expect": text, "verdict": rep.get("verdict"), "pass": ok, "message": rep.get("message", "")[:300],
           "build": rep.get("build"), "stages": rep.get("stages"), "run": "group"}
    if not ok and alone_left > 0:  # alone, to tell a group effect from the row's own verdict
        alone_left -= 1
        try:
            p = subprocess.run([binary, "eval", "--root", root, "--task", task, "--candidate", f, "--json",
                                "--time-budget", "0.5"], capture_output=True, text=True, timeout=alone_limit)
            alone = load(p.stdout) or {"verdict": "no_report", "message": (p.stdout + p.stderr)[-400:]}
            open(log, "a").write(p.stderr)
        except subprocess.TimeoutExpired:
            alone = {"verdict": "no_report", "message": f"alone run over {alone_limit:g} s"}
        row["alone"] = {"verdict": alone.get("verdict"), "message": alone.get("message", "")[:300],
                        "pass": alone.get("verdict") in verdicts and shows(alone, needle)}
    res.append(row)
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
  j="$work/ds-$(basename "$d").json"
  timeout "${TASK_LIMIT_S:-240}" "$bin" tasks check-gpu "$d" --time-budget "${TIME_BUDGET:-1}" --json "$j" >> "$log" 2>&1
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
     "redteam_failures": [x["row"] for x in red if not x["pass"]],
     "redteam_as_expected_alone": sum(x["pass"] or x.get("alone", {}).get("pass", False) for x in red), "dataset_impls": len(rows),
     "dataset_ok": len(rows) - len(flagged), "dataset_flagged": flagged,
     "build_confinement": sorted({(x.get("build") or {}).get("confinement", "") for x in red} - {""})}
json.dump(s, open(summary, "w"), indent=1)
print(json.dumps({k: v for k, v in s.items() if k != "dataset_flagged"}), "flagged:", len(flagged))
PY

#!/usr/bin/env bash
# serve-replay [--task ID] [--seed N] [--step N] [--workers-per-gpu N] [--time-budget S]
# One task's candidates of one step of bench/rl_step_workload.py's plan through `cudaperf serve`.
# The plan is drawn as bench/rl_step_load.py draws it (16 prompts x 8 samples, 2 steps); the task's
# candidates of that step go in as one batch, then again in reverse order (each pass's sources made
# distinct): each candidate's verdict and per-config messages. Default: step 1's
# sparse_graph/spmv_csr_f32 batch of seed 2026, whose naive-based variants were wrong_answer on
# 2026-12-02. Writes under $OUT: replay.jsonl, serve.log, device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
task=sparse_graph/spmv_csr_f32 seed=2026 step=1 wpg=4 budget=0.2
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --task) need_value "$@"; task=$2; shift 2 ;;
    --seed) need_value "$@"; check_count "$1" "$2"; seed=$2; shift 2 ;;
    --step) need_value "$@"; check_count "$1" "$2"; step=$2; shift 2 ;;
    --workers-per-gpu) need_value "$@"; check_count "$1" "$2"; wpg=$2; shift 2 ;;
    --time-budget) need_value "$@"; check_number "$1" "$2"; budget=$2; shift 2 ;;
    *) usage_error "unknown argument $1" ;;
  esac
done
gpu_setup
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --port "$port" --store "$OUT/replay.sqlite" --workers-per-gpu "$wpg" --time-budget "$budget" > "$OUT/serve.log" 2>&1 &
serve_pid=$!
python3 - "$port" "$task" "$seed" "$step" > "$OUT/replay.jsonl" <<'PY'
import json, sys, time
sys.path[:0] = ["python", "bench"]
import rl_step_workload as w
from cudaperf.client import Client
port, task, seed, step = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
cands = [c for c in w.build_plan("data/tasks", 16, 8, 2, seed)["steps"][step - 1] if c["task"] == task]
if not cands:
    sys.exit(f"serve-replay: no candidate of {task} in step {step} of seed {seed}")
c = Client(f"http://127.0.0.1:{port}", timeout_s=240)
for _ in range(60):  # health() answers {url: up}, it does not raise
    if all(c.health().values()):
        break
    time.sleep(1)
else:
    sys.exit(f"serve-replay: the service on port {port} did not come up (see serve.log)")
for order in ("forward", "reverse"):
    batch = cands if order == "forward" else cands[::-1]
    t0 = time.time()
    # a line per pass: the service's result cache must not answer the second pass from the first
    reqs = [{"task": x["task"], "source": x["source"] + f"\n// replay {order}\n"} for x in batch]
    for x, r in zip(batch, c.evaluate(reqs, wait_s=200)):
        print(json.dumps({"order": order, "sample": x["sample"], "class": x["class"], "edit": x["edit"], "sha": x["sha"],
                          "verdict": r.get("verdict"), "message": str(r.get("message", ""))[:600],
                          "configs": [[k.get("config"), k.get("status"), str(k.get("message", ""))[:300]]
                                      for k in r.get("configs", [])]}), flush=True)
    print(json.dumps({"order": order, "seconds": round(time.time() - t0, 1)}), flush=True)
PY
rc=$?
kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null
grep -o '"sample": [0-9]*, "class": "[a-z_]*"\|"verdict": "[a-z_]*"' "$OUT/replay.jsonl" | paste - - | sort | uniq -c
exit $rc

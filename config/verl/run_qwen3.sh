#!/usr/bin/env bash
# verl 0.9 GRPO of a Qwen3-class model with the cudaperf reward on a Ray cluster (docs/rl.md):
#   on every GPU node:  cudaperf serve --port 8080 --workers-per-gpu 2 &
#   on the head node:   ray start --head; on the others: ray start --address HEAD:6379
#   then, on the head:  NNODES=4 CUDAPERF_URL=http://node1:8080,http://node2:8080,... config/verl/run_qwen3.sh [overrides...]
# The client sends each call to the next URL in turn (round robin, failover). Extra arguments are
# Hydra overrides (e.g. actor_rollout_ref.model.path=/models/Qwen3-32B trainer.n_gpus_per_node=8).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export CUDAPERF_REPO="$repo" PYTHONPATH="$repo/python:${PYTHONPATH:-}"
data="${CUDAPERF_VERL_DATA:-$repo/data/verl}"
export CUDAPERF_VERL_DATA="$data"
if [ ! -f "$data/train.parquet" ]; then
  "${CUDAPERF_BIN:-cudaperf}" export --format verl --out "$data.jsonl"
  python3 "$repo/config/verl/make_data.py" "$data.jsonl" "$data"
fi
exec python3 -m verl.trainer.main_ppo --config-path="$repo/config/verl" --config-name=cudaperf_qwen3 "$@"

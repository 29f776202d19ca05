#!/usr/bin/env bash
# The RL run on one H200 (device tool), within ~9 minutes wall: `cudaperf serve` on the GPU as the
# reward, then rl/run.py --preset h200 (SFT of an ~11 M-parameter policy built here, then GRPO through
# TRL for the reward variants, one after the other), the curves drawn; at most 8 files under $OUT.
# Carry: build/gpu-bundle (bash tools/bundle-gpu.sh here) and .whl (trl, datasets, dill, multiprocess
# for Python 3.12: see docs/rl.md). Env: RL_VARIANTS (default speed,structure,ranker), RL_GRPO_STEPS (per
# variant, default 5), RL_MINUTES (the cap of all GRPO steps, default 6), RL_MULTI_TURN=1 for rollouts
# through the tool, RL_TASKS (only the first N training tasks: fewer to prepare), RL_SFT_MINUTES, RL_WORKERS.
# The 2026-12-03 run with the defaults (3 variants) ran out of the 520 s after 4 GRPO steps of its first.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-rl-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
start=$(date +%s)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  > "$OUT/log.txt" 2>&1 || { echo "wheel install failed" >> "$OUT/log.txt"; exit 1; }
export PYTHONPATH=/tmp/site:$PWD/python:$PWD
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH" CUDAPERF_CACHE_DIR=/tmp/cudaperf-cache CUDAPERF_PYTHON_DIR="$PWD/python"
export CUDAPERF_CONFINE_LIB="$PWD/build/gpu-bundle/libcudaperf_confine.so" HF_HUB_OFFLINE=1 TRL_EXPERIMENTAL_SILENCE=1
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
python3 -c 'import torch, transformers, trl, datasets; print("torch", torch.__version__, torch.cuda.is_available(), "transformers", transformers.__version__, "trl", trl.__version__)' >> "$OUT/log.txt" 2>&1 || exit 1
variants=${RL_VARIANTS:-speed,structure,ranker}
n=$(echo "$variants" | tr ',' '\n' | grep -c .)
# the same budget for every variant is the same number of GRPO steps (the minutes only cap a stuck one;
# the service's one-time task preparation is paid before the first variant, run.py's warm-service)
grpo_steps=${RL_GRPO_STEPS:-5}
minutes=$(python3 -c "print(max(0.5, ${RL_MINUTES:-6} / $n))")
run=(python3 rl/run.py "$OUT/run" --cudaperf build/gpu-bundle/cudaperf --preset h200 --variants "$variants"
     --grpo-steps "$grpo_steps" --step-minutes "$minutes" --sft-minutes "${RL_SFT_MINUTES:-2.5}" --workers "${RL_WORKERS:-4}" --time-budget 0.05)
[ -n "${RL_TASKS:-}" ] && run+=(--tasks "$RL_TASKS")
[ "${RL_MULTI_TURN:-0}" = 1 ] && run+=(--multi-turn)
timeout 520 "${run[@]}" >> "$OUT/log.txt" 2>&1
echo "rl/run.py exit $? after $(( $(date +%s) - start )) s" >> "$OUT/log.txt"
python3 rl/plot.py "$OUT/run" --png "$OUT/curves.png" >> "$OUT/log.txt" 2>&1
# what comes back: the log, the curves, the metrics and the summary (policies stay there)
for f in "$OUT"/run/metrics-*.jsonl "$OUT/run/summary.json" "$OUT/run/state.json"; do [ -f "$f" ] && cp "$f" "$OUT/"; done
rm -rf "$OUT/run"
ls "$OUT" >> "$OUT/log.txt"

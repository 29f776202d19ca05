#!/usr/bin/env bash
# measure [--root DIR] [--time-budget S] [--run-limit S] [--ncu-limit S] [TASK...]
# Device peaks, timing stability over three runs, event medians against Nsight Compute.
#   `peaks --remeasure`; three `tasks check-gpu` runs over the same tasks (bench/stability.py); one
#   more under ncu, its gpu__time_duration.sum against the first run's medians (bench/timing_truth.py).
#   TASK...           c2cuda task ids (default: seven tasks of physics, sparse_graph, histogram,
#                     stencil and reduction)
#   --root DIR        the dataset they are in (default data/tasks; tests/data/timing_tasks has
#                     timing/saxpy_sizes, ~12 us to ~1 ms per call)
#   --time-budget S   seconds of sampling per perf config (default: $TIME_BUDGET, else 1)
#   --run-limit S     each stability run is stopped after S seconds (default 130)
#   --ncu-limit S     the run under ncu is stopped after S seconds (default 170)
# Writes under $OUT: measure.txt (peaks, the runs' tables, wall seconds, the two reports), measure.log
# (stderr), stability.json, truth.json, ncu.csv.gz, records.jsonl (the three runs), device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
budget=${TIME_BUDGET:-1} run_limit=130 ncu_limit=170 data=data/tasks
tasks=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --root) need_value "$@"; check_dir "$2"; data=$2; shift 2 ;;
    --time-budget) need_value "$@"; check_number "$1" "$2"; budget=$2; shift 2 ;;
    --run-limit) need_value "$@"; check_number "$1" "$2"; run_limit=$2; shift 2 ;;
    --ncu-limit) need_value "$@"; check_number "$1" "$2"; ncu_limit=$2; shift 2 ;;
    -*) usage_error "unknown option $1" ;;
    *) tasks+=("$1"); shift ;;
  esac
done
[ ${#tasks[@]} -gt 0 ] || tasks=(physics/lj_forces_cutoff physics/nbody_accel sparse_graph/spmv_csr_f32 sparse_graph/spmv_ell_f32
                                 histogram/hist2d_f64 stencil/jacobi2d_5pt reduction/row_l2_norm)
for t in "${tasks[@]}"; do check_dir "$data/c2cuda/$t"; done
gpu_setup
ncu=$(find_ncu)
tmp=$(mktemp -d); root=$tmp/tasks
for t in "${tasks[@]}"; do mkdir -p "$root/c2cuda/$(dirname "$t")"; cp -rL "$data/c2cuda/$t" "$root/c2cuda/$t"; done
{ echo "== peaks"; "$bin" peaks --remeasure --json; } > "$OUT/measure.txt" 2>&1
for run in 1 2 3; do
  start=$(date +%s)
  { echo "== stability run $run"
    timeout "$run_limit" "$bin" tasks check-gpu "$root" --time-budget "$budget" --records "$tmp/run-$run.jsonl" 2>> "$OUT/measure.log"
    echo "run $run wall seconds: $(( $(date +%s) - start ))"; } >> "$OUT/measure.txt"
done
python3 bench/stability.py "$tmp"/run-{1,2,3}.jsonl --out "$OUT/stability.json" >> "$OUT/measure.txt" 2>&1
echo "== ncu" >> "$OUT/measure.txt"
if [ -n "$ncu" ]; then
  start=$(date +%s)
  CUDAPERF_NO_SECCOMP=1 CUDAPERF_SPIN_TIMEOUT_MS=0 timeout "$ncu_limit" "$ncu" --clock-control none --cache-control all --target-processes all \
    --metrics gpu__time_duration.sum --csv --print-units base --log-file "$tmp/ncu.csv" \
    "$bin" tasks check-gpu "$root" --time-budget 0.05 --records "$tmp/ncu-run.jsonl" >> "$OUT/measure.log" 2>&1
  echo "ncu exit $? wall seconds: $(( $(date +%s) - start ))" >> "$OUT/measure.txt"
  python3 bench/timing_truth.py "$tmp/run-1.jsonl" "$tmp/ncu.csv" "$tmp/ncu-run.jsonl" --out "$OUT/truth.json" >> "$OUT/measure.txt" 2>&1
  gzip -c "$tmp/ncu.csv" > "$OUT/ncu.csv.gz"
else
  echo "ncu not found (PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute): no truth.json" | tee -a "$OUT/measure.txt"
fi
cat "$tmp"/run-{1,2,3}.jsonl > "$OUT/records.jsonl"

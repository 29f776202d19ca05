#!/usr/bin/env bash
# torch-tasks [--time-budget S] [--build-jobs N] [--warm-jobs N] [--deadline EPOCH] GROUP...
# The torch2cuda dataset, one GROUP (comma-separated task folders) per GPU; resumable.
#   A group's impls build (--build-only) and its references' torch.compile warm up (--warm-only) in
#   the background, niced, folder by folder in evaluation order; each folder is evaluated task by
#   task once its builds are done. Tasks done (markers in build/t2c-progress, kept on a warm machine)
#   are skipped; no task starts after the deadline. A carried build/t2c-carry/*.tgz (an earlier
#   call's torch-cache-out) seeds the cache.
#   --time-budget S    seconds of sampling per perf config (default: $TIME_BUDGET, else 0.5)
#   --build-jobs N     parallel builds per group (default 0: one per core)
#   --warm-jobs N      parallel warm-ups per group (default 4)
#   --deadline EPOCH   no task starts after these epoch seconds (default: $TORCH_DEADLINE, else none;
#                      tools/gpu-run.sh sets it)
# Writes under $OUT, per group g: torch-<g>.txt (progress), torch-<g>.log (stderr),
# torch-records-<g>.jsonl, and this call's task markers torch2cuda_*.json; device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
budget=${TIME_BUDGET:-0.5} build_jobs=0 warm_jobs=4 deadline=${TORCH_DEADLINE:-}
groups=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) show_help; exit 0 ;;
    --time-budget) need_value "$@"; check_number "$1" "$2"; budget=$2; shift 2 ;;
    --build-jobs) need_value "$@"; check_count "$1" "$2"; build_jobs=$2; shift 2 ;;
    --warm-jobs) need_value "$@"; check_count "$1" "$2"; warm_jobs=$2; shift 2 ;;
    --deadline) need_value "$@"; check_count "$1" "$2"; deadline=$2; shift 2 ;;
    -*) usage_error "unknown option $1" ;;
    *) groups+=("$1"); shift ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || usage_error "needs at least one GROUP"
[ -z "$deadline" ] || check_count --deadline "$deadline"
for group in "${groups[@]}"; do
  IFS=, read -ra ds <<<"$group"
  for d in "${ds[@]}"; do check_dir "$d"; done
done
gpu_setup
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
marker() { echo "$prog/built-${1//\//_}"; }  # a folder's builds are done
past_deadline() { [ -n "$deadline" ] && [ "$(date +%s)" -ge "$deadline" ]; }
prog=$PWD/build/t2c-progress; mkdir -p "$prog"
for f in build/t2c-carry/*.tgz; do
  [ -f "$f" ] && [ ! -f "$prog/unpacked-$(basename "$f")" ] && mkdir -p "$CUDAPERF_CACHE_DIR" && \
    tar xzf "$f" -C "$CUDAPERF_CACHE_DIR" && touch "$prog/unpacked-$(basename "$f")" && echo "cache seeded from $f"
done
ngpu=$(nvidia-smi -L | wc -l); g=0; pids=()
for group in "${groups[@]}"; do
  IFS=, read -ra ds <<<"$group"
  dev=$(( g % ngpu ))
  ( export CUDA_VISIBLE_DEVICES=$dev
    for d in "${ds[@]}"; do rm -f "$(marker "$d")"; done
    rm -f "$prog/warmed-$g"
    ( for d in "${ds[@]}"; do
        nice -n 10 "$bin" tasks check-gpu "$d" --build-only -j "$build_jobs" --resume-dir "$prog" | tail -1
        touch "$(marker "$d")"
      done ) &
    # The warm-ups run each compiled reference once on the GPU: all of them finish before anything
    # is timed (a carried Inductor cache makes them cache hits).
    ( for d in "${ds[@]}"; do nice -n 5 "$bin" tasks check-gpu "$d" --warm-only -j "$warm_jobs" --resume-dir "$prog" | tail -1; done
      touch "$prog/warmed-$g" ) &
    stamp=$(mktemp)
    for d in "${ds[@]}"; do
      w0=$(date +%s)
      until { [ -f "$(marker "$d")" ] && [ -f "$prog/warmed-$g" ]; } || past_deadline || [ $(( $(date +%s) - w0 )) -ge 900 ]; do sleep 1; done
      echo "$d: builds and warm-ups ready after $(( $(date +%s) - w0 )) s"
      if past_deadline; then echo "deadline: stopped before $d"; break; fi
      start=$(date +%s)
      # one process per folder: task by task, a marker per finished task (kept on a warm machine),
      # the next task's reference started ahead; no task starts after the deadline
      "$bin" tasks check-gpu "$d" --no-warm --time-budget "$budget" --records "$OUT/torch-records-$g.jsonl" \
        --resume-dir "$prog" ${deadline:+--deadline-epoch "$deadline"} 2>> "$OUT/torch-$g.log" | grep -E '^torch2cuda/|problems|^time:|deadline'
      rc=${PIPESTATUS[0]}
      if [ "$rc" -ge 128 ]; then echo "CRASH: cudaperf tasks check-gpu $d ended by signal $((rc - 128))"; touch "$OUT/crashed-$g"; fi
      find "$prog" -maxdepth 1 -name 'torch2cuda_*.json' -newer "$stamp" -exec cp {} "$OUT/" \;  # this call's markers
      echo "$d wall seconds: $(( $(date +%s) - start ))"
    done
    for j in $(jobs -p); do kill_tree "$j"; done ) >> "$OUT/torch-$g.txt" 2>&1 &
  pids+=($!); g=$((g + 1))
done
wait "${pids[@]}"
# a crash of cudaperf itself fails the job (its folders' records are missing)
if compgen -G "$OUT/crashed-*" > /dev/null; then rm -f "$OUT"/crashed-*; exit 1; fi

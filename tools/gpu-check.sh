#!/usr/bin/env bash
# Runs on the GPU machine (device tool) over a working tree that carries build/gpu-bundle
# (made here by tools/bundle-gpu.sh). Writes everything under $OUT (./gpu-out when unset).
#   tools/gpu-check.sh dataset [PATH]   every implementation vs the C reference, timed at perf size;
#                                       appends records to $OUT/records.jsonl, table in $OUT/dataset.txt
#   tools/gpu-check.sh redteam          every tests/redteam candidate through `cudaperf eval`
#   tools/gpu-check.sh serve            the reward service under load (bench/serve_load.py), then serve-resume
#   tools/gpu-check.sh smoke            one task end to end (a quick check that the bundle runs)
#   tools/gpu-check.sh torch [DIR...]   torch2cuda tasks (docs/torch2cuda.md): check-gpu + records, the torch
#                                       red team, compile cold vs cached; needs torch (CUDAPERF_PYTHON)
#   tools/gpu-check.sh measure          device peaks; timing stability (3 runs over the same tasks);
#                                       event medians vs Nsight Compute (gpu__time_duration.sum)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)  # absolute: some modes cd
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-/tmp/cudaperf-cache}
export CUDAPERF_PYTHON_DIR="$PWD/python"  # the binary's built-in path is this machine's checkout
# torch2cuda modes: the interpreter with torch, and the candidate worker's confinement from the bundle
export CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
export CUDAPERF_CONFINE_LIB=${CUDAPERF_CONFINE_LIB:-$PWD/build/gpu-bundle/libcudaperf_confine.so}
bin=build/gpu-bundle/cudaperf
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/device.csv" 2>&1
mode=${1:-smoke}
case "$mode" in
  dataset)  # tools/gpu-check.sh dataset [FOLDER...]   (TIME_BUDGET=seconds per perf config, default 2)
    shift
    [ $# -gt 0 ] || set -- data/tasks
    for d in "$@"; do
      start=$(date +%s)
      "$bin" tasks check-gpu "$d" --time-budget "${TIME_BUDGET:-2}" \
        --records "$OUT/records.jsonl" 2>> "$OUT/dataset.log" | tee -a "$OUT/dataset.txt"
      echo "$d wall seconds: $(( $(date +%s) - start ))" | tee -a "$OUT/dataset.txt"
    done ;;
  redteam)
    # saxpy with a 2^25-element perf config instead of 4e8, so the 39 rows fit in one device call
    rt=$(mktemp -d)/tasks; mkdir -p "$rt/c2cuda/elementwise"
    cp -r data/tasks/c2cuda/elementwise/saxpy "$rt/c2cuda/elementwise/"
    sed -i 's/{ name = "perf", n = 400000000 }/{ name = "perf", n = 33554432 }/' "$rt/c2cuda/elementwise/saxpy/task.toml"
    grep -q 'n = 33554432' "$rt/c2cuda/elementwise/saxpy/task.toml" || { echo "redteam: cannot shrink saxpy"; exit 2; }
    : > "$OUT/redteam.txt"
    for f in tests/redteam/*.cu; do
      out=$("$bin" eval --root "$rt" --task elementwise/saxpy --candidate "$f" --time-budget "${TIME_BUDGET:-2}" --json 2>&1)
      v=$(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["verdict"], "|", j["message"].splitlines()[0][:150] if j["message"] else "")' <<<"$out" 2>/dev/null || echo "no-json")
      want=$(sed -n 's|^// expect: *||p' "$f" | head -1)
      printf '%-26s want %-34s got %s\n' "$(basename "$f" .cu)" "$want" "$v" | tee -a "$OUT/redteam.txt"
    done ;;
  measure)  # TIME_BUDGET (default 1) per perf config; MEASURE_TASKS overrides the task list
    tasks=${MEASURE_TASKS:-"physics/lj_forces_cutoff physics/nbody_accel sparse_graph/spmv_csr_f32 sparse_graph/spmv_ell_f32 histogram/hist2d_f64 stencil/jacobi2d_5pt reduction/row_l2_norm"}
    tmp=$(mktemp -d); root=$tmp/tasks
    for t in $tasks; do mkdir -p "$root/c2cuda/$(dirname "$t")"; cp -r "data/tasks/c2cuda/$t" "$root/c2cuda/$t"; done
    { echo "== peaks"; "$bin" peaks --remeasure --json; } > "$OUT/measure.txt" 2>&1
    for run in 1 2 3; do
      start=$(date +%s)
      echo "== stability run $run" >> "$OUT/measure.txt"
      timeout "${RUN_LIMIT:-130}" "$bin" tasks check-gpu "$root" --time-budget "${TIME_BUDGET:-1}" --records "$tmp/run-$run.jsonl" \
        >> "$OUT/measure.txt" 2>> "$OUT/measure.log"
      echo "run $run wall seconds: $(( $(date +%s) - start ))" >> "$OUT/measure.txt"
    done
    python3 bench/stability.py "$tmp"/run-{1,2,3}.jsonl --out "$OUT/stability.json" >> "$OUT/measure.txt" 2>&1
    echo "== ncu" >> "$OUT/measure.txt"
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    start=$(date +%s)
    CUDAPERF_NO_SECCOMP=1 CUDAPERF_SPIN_TIMEOUT_MS=0 timeout "${NCU_LIMIT:-170}" "$ncu" --clock-control none --cache-control all --target-processes all \
      --metrics gpu__time_duration.sum --csv --print-units base --log-file "$tmp/ncu.csv" \
      "$bin" tasks check-gpu "$root" --time-budget 0.05 --records "$tmp/ncu-run.jsonl" >> "$OUT/measure.log" 2>&1
    echo "ncu exit $? wall seconds: $(( $(date +%s) - start ))" >> "$OUT/measure.txt"
    python3 bench/timing_truth.py "$tmp/run-1.jsonl" "$tmp/ncu.csv" "$tmp/ncu-run.jsonl" --out "$OUT/truth.json" >> "$OUT/measure.txt" 2>&1
    gzip -c "$tmp/ncu.csv" > "$OUT/ncu.csv.gz"
    cat "$tmp"/run-{1,2,3}.jsonl > "$OUT/records.jsonl" ;;
  structure)  # every dataset implementation once under ncu (DESIGN §5 metrics), one ncu run per category
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    tmp=$(mktemp -d)
    "$bin" profile-target --list-metrics | tr ',' '\n' > "$tmp/wanted.txt"
    "$ncu" --query-metrics > "$tmp/query.txt" 2>&1
    # keep the metrics this ncu knows (base name before the first '.'), log the rest
    python3 - "$tmp/wanted.txt" "$tmp/query.txt" "$tmp/metrics.txt" > "$OUT/structure.log" <<'PY'
import sys
wanted = open(sys.argv[1]).read().split()
known = {l.split()[0] for l in open(sys.argv[2], errors="replace") if l.strip()}
# launch__* attributes and *_pct ratios are not listed by --query-metrics; keep them
ok = [m for m in wanted if m.split(".")[0] in known or m.startswith("launch__") or m.endswith("_pct")] if len(known) > 100 else wanted
print("metrics dropped (unknown to this ncu):", [m for m in wanted if m not in ok])
open(sys.argv[3], "w").write(",".join(ok))
PY
    : > "$OUT/profile-items.jsonl"
    for cat in ${STRUCTURE_DIRS:-data/tasks/c2cuda/*/}; do
      cname=$(basename "$cat"); root=$tmp/r-$cname; mkdir -p "$root/c2cuda"; cp -r "$cat" "$root/c2cuda/"
      "$bin" profile-target --all --root "$root" --config build-only > /dev/null 2>&1  # fills the compile cache
      start=$(date +%s)
      timeout "${CAT_LIMIT:-120}" "$ncu" --clock-control none --cache-control all --target-processes application-only \
        --csv --print-units base \
        --metrics "$(cat "$tmp/metrics.txt")" --log-file "$tmp/ncu-$cname.csv" \
        "$bin" profile-target --all --root "$root" >> "$OUT/profile-items.jsonl" 2>> "$OUT/structure.log"
      echo "$cname: ncu exit $? in $(( $(date +%s) - start )) s" >> "$OUT/structure.log"
    done
    tar czf "$OUT/ncu-structure.tgz" -C "$tmp" $(cd "$tmp" && ls ncu-*.csv) ;;
  serve)  # the reward service under load (bench/serve_load.py): SERVE_N candidates (default 1000), a worker
          # killed mid-batch; SERVE_DEADLINE seconds (default 500), then the store is left in $OUT for
          # `serve-resume`; SERVE_ANALYZE=1 first runs the issue-4 check of `analyze --dynamic`
    if [ -n "${SERVE_ANALYZE:-}" ]; then
      bash tests/gpu_analyze_dynamic.sh "$bin" data/tasks > "$OUT/analyze-dynamic.txt" 2>&1; echo "exit $?" >> "$OUT/analyze-dynamic.txt"
    fi
    python3 tools/serve_load_root.py data/tasks "$PWD/build/serve-load-root"
    python3 bench/serve_load.py --cudaperf "$PWD/$bin" --root "$PWD/build/serve-load-root" --out "$OUT" \
      --n "${SERVE_N:-1000}" --deadline-s "${SERVE_DEADLINE:-500}" --workers-per-gpu "${SERVE_WPG:-4}" \
      --batch "${SERVE_BATCH:-8}" --time-budget "${TIME_BUDGET:-0.1}" > "$OUT/serve-load.txt" 2>&1
    rm -rf "$OUT/seq" ;;
  serve-resume)  # finish a stopped `serve` run: its $OUT files carried in build/serve-load/
    python3 tools/serve_load_root.py data/tasks "$PWD/build/serve-load-root"
    python3 bench/serve_load.py --cudaperf "$PWD/$bin" --root "$PWD/build/serve-load-root" --out "$OUT" \
      --resume build/serve-load --deadline-s "${SERVE_DEADLINE:-500}" --workers-per-gpu "${SERVE_WPG:-4}" \
      --batch "${SERVE_BATCH:-8}" --time-budget "${TIME_BUDGET:-0.1}" > "$OUT/serve-load.txt" 2>&1
    rm -rf "$OUT/seq" ;;
  torch)  # tools/gpu-check.sh torch [DIR...]   (default: tests/data/torch_tasks and data/tasks/torch2cuda)
    shift
    [ -f "$CUDAPERF_CONFINE_LIB" ] || echo "warning: $CUDAPERF_CONFINE_LIB missing (add libcudaperf_confine.so to the bundle); candidate workers refuse to run unconfined" | tee "$OUT/torch.txt"
    { "$CUDAPERF_PYTHON" -c "import torch; print('torch', torch.__version__, torch.version.cuda, torch.cuda.is_available())"; } >> "$OUT/torch.txt" 2>&1 \
      || { echo "torch mode: torch is not importable by $CUDAPERF_PYTHON" | tee -a "$OUT/torch.txt"; exit 2; }
    [ $# -gt 0 ] || set -- tests/data/torch_tasks $( [ -d data/tasks/torch2cuda ] && echo data/tasks/torch2cuda )
    for d in "$@"; do
      { echo "== validate $d"; "$bin" tasks validate "$d" --json "$OUT/torch-validate-$(basename "$d").json"; } >> "$OUT/torch.txt" 2>&1
      start=$(date +%s)
      echo "== check-gpu $d" >> "$OUT/torch.txt"
      "$bin" tasks check-gpu "$d" --time-budget "${TIME_BUDGET:-1}" --json "$OUT/torch-check-$(basename "$d").json" \
        --records "$OUT/torch-records.jsonl" >> "$OUT/torch.txt" 2>> "$OUT/torch.log"
      echo "$d wall seconds: $(( $(date +%s) - start ))" >> "$OUT/torch.txt"
    done
    bash "$0" torch-redteam ;;
  torch-redteam)  # the torch red team (tests/redteam/torch) and one candidate's compile time, cold then cached
    # compile latency: the same candidate cold (fresh cache) then cached
    c=tests/data/torch_tasks/torch2cuda/elementwise/leaky_relu/impls/vectorized.py
    cold=$(mktemp -d)  # its own cache: the dataset's builds in $CUDAPERF_CACHE_DIR stay
    for run in cold cached; do
      CUDAPERF_CACHE_DIR=$cold "$bin" eval --root tests/data/torch_tasks --task torch2cuda/elementwise/leaky_relu --candidate "$c" --json \
        --time-budget 0.5 > "$OUT/torch-eval-$run.json" 2>> "$OUT/torch.log"
      python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sys.argv[2], j["verdict"], "build", j.get("build"))' \
        "$OUT/torch-eval-$run.json" $run >> "$OUT/torch.txt" 2>&1
    done
    # every red-team file in one run (shared reference and inputs; each candidate confined alone)
    args=(); for f in tests/redteam/torch/*.py; do args+=(--candidate "$f"); done
    "$bin" eval --root tests/data/torch_tasks --task torch2cuda/elementwise/leaky_relu "${args[@]}" --time-budget 0.5 --json \
      > "$OUT/torch-redteam.json" 2>> "$OUT/torch.log"
    python3 - "$OUT/torch-redteam.json" <<'PY' | tee "$OUT/torch-redteam.txt"
import json, os, re, sys
for r in json.load(open(sys.argv[1])):
    want = re.search(r"^# expect: *(.*)$", open(r["candidate"]).read(), re.M)
    msg = r["message"].splitlines()[0][:150] if r["message"] else ""
    print(f"{os.path.basename(r['candidate'])[:-3]:<22} want {want.group(1) if want else '?':<34} got {r['verdict']} | {msg}")
PY
    ;;
  refine)  # issue 7: `cudaperf refine` with a scripted model and real GPU verdicts (tests/check_refine_gpu.py)
    CUDAPERF_BENCH_OUT="$OUT/refine.jsonl" python3 tests/check_refine_gpu.py "$bin" data/tasks . > "$OUT/refine.txt" 2>&1
    echo "exit $?" >> "$OUT/refine.txt" ;;
  torch-build)  # tools/gpu-check.sh torch-build [DIR]: every torch2cuda impl's extensions built cold, in parallel
    shift
    "$bin" tasks check-gpu "${1:-data/tasks/torch2cuda}" --build-only -j "${BUILD_JOBS:-0}" --json "$OUT/torch-build.json" \
      > "$OUT/torch-build.txt" 2>&1 ;;
  torch-tasks)  # tools/gpu-check.sh torch-tasks GROUP...: a group (comma-separated task folders) per GPU. Its
                # impls build (--build-only) and its references' torch.compile warm up (--warm-only) in the
                # background, niced, folder by folder in evaluation order; each folder is evaluated task by
                # task once its builds are done. Tasks done (markers in build/t2c-progress, kept on a warm
                # machine) are skipped; no task starts after TORCH_DEADLINE (epoch seconds). A carried
                # build/t2c-carry/*.tgz (from an earlier call's $OUT, see torch-cache-out) seeds the cache.
    shift
    prog=$PWD/build/t2c-progress; mkdir -p "$prog"
    for f in build/t2c-carry/*.tgz; do
      [ -f "$f" ] && [ ! -f "$prog/unpacked-$(basename "$f")" ] && mkdir -p "$CUDAPERF_CACHE_DIR" && \
        tar xzf "$f" -C "$CUDAPERF_CACHE_DIR" && touch "$prog/unpacked-$(basename "$f")" && echo "cache seeded from $f"
    done
    ngpu=$(nvidia-smi -L | wc -l); g=0; pids=()
    for group in "$@"; do
      dev=$(( g % ngpu ))
      ( export CUDA_VISIBLE_DEVICES=$dev
        for d in ${group//,/ }; do rm -f "$prog/built-$(echo "$d" | tr / _)"; done
        rm -f "$prog/warmed-$g"
        ( for d in ${group//,/ }; do
            nice -n 10 "$bin" tasks check-gpu "$d" --build-only -j "${BUILD_JOBS:-0}" --resume-dir "$prog" | tail -1
            touch "$prog/built-$(echo "$d" | tr / _)"
          done ) &
        # The warm-ups run each compiled reference once on the GPU: all of them finish before anything
        # is timed (a carried Inductor cache makes them cache hits).
        ( for d in ${group//,/ }; do nice -n 5 "$bin" tasks check-gpu "$d" --warm-only -j "${WARM_JOBS:-4}" --resume-dir "$prog" | tail -1; done
          touch "$prog/warmed-$g" ) &
        past_deadline() { [ -n "${TORCH_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$TORCH_DEADLINE" ]; }
        stamp=$(mktemp)
        for d in ${group//,/ }; do
          w0=$(date +%s)
          until { [ -f "$prog/built-$(echo "$d" | tr / _)" ] && [ -f "$prog/warmed-$g" ]; } || past_deadline || [ $(( $(date +%s) - w0 )) -ge 900 ]; do sleep 1; done
          echo "$d: builds and warm-ups ready after $(( $(date +%s) - w0 )) s"
          if past_deadline; then echo "deadline: stopped before $d"; break; fi
          start=$(date +%s)
          # one process per folder: task by task, a marker per finished task (kept on a warm machine),
          # the next task's reference started ahead; no task starts after the deadline
          "$bin" tasks check-gpu "$d" --no-warm --time-budget "${TIME_BUDGET:-0.5}" --records "$OUT/torch-records-$g.jsonl" \
            --resume-dir "$prog" ${TORCH_DEADLINE:+--deadline-epoch $TORCH_DEADLINE} 2>> "$OUT/torch-$g.log" | grep -E '^torch2cuda/|problems|^time:|deadline'
          find "$prog" -maxdepth 1 -name 'torch2cuda_*.json' -newer "$stamp" -exec cp {} "$OUT/" \;  # this call's markers
          echo "$d wall seconds: $(( $(date +%s) - start ))"
        done
        for j in $(jobs -p); do kill_tree "$j"; done ) >> "$OUT/torch-$g.txt" 2>&1 &
      pids+=($!); g=$((g + 1))
    done
    wait "${pids[@]}" ;;
  torch-cache-out)  # the torch build cache (finished extensions) and the Inductor cache, packed into $OUT for the
                    # next call to carry as build/t2c-carry/ (each file at most 15 MiB: the device tool's limit)
    du -sh "$CUDAPERF_CACHE_DIR"/* 2>&1 | tee "$OUT/cache-sizes.txt"
    (cd "$CUDAPERF_CACHE_DIR" && find torch_ext -mindepth 2 -maxdepth 2 -name '*.so' ! -path '*/tmp-*' | tar czf "$OUT/t2c-ext.tgz" -T -)
    [ -d "$CUDAPERF_CACHE_DIR/inductor" ] && tar czf "$OUT/t2c-inductor.tgz" -C "$CUDAPERF_CACHE_DIR" inductor
    for f in "$OUT"/t2c-*.tgz; do
      sz=$(stat -c %s "$f"); echo "$(basename "$f") $sz bytes" | tee -a "$OUT/cache-sizes.txt"
      [ "$sz" -le $((15 << 20)) ] || { echo "too large to come back: $f" | tee -a "$OUT/cache-sizes.txt"; rm -f "$f"; }
    done ;;
  torch-vs-kb)  # tools/gpu-check.sh torch-vs-kb TASK_DIR...: candidates per minute of `check-gpu` and of the
                # KernelBench-style loop (bench/kernelbench_loop.py) on the same impls, both compile caches cold
    shift
    n=0; for d in "$@"; do n=$(( n + $(find "$d" -path '*/impls/*.py' | wc -l) )); done
    s=$(date +%s)
    cold=$(mktemp -d)
    for d in "$@"; do
      CUDAPERF_CACHE_DIR=$cold "$bin" tasks check-gpu "$d" --time-budget "${TIME_BUDGET:-0.5}" >> "$OUT/engine.txt" 2>> "$OUT/engine.log"
    done
    e=$(( $(date +%s) - s )); s=$(date +%s)
    python3 bench/kernelbench_loop.py --tasks "$@" --out "$OUT/kb-loop.json" ${KB_DEADLINE:+--deadline $KB_DEADLINE} 2> "$OUT/kb-loop.log"
    k=$(( $(date +%s) - s ))
    python3 - "$n" "$e" "$OUT/kb-loop.json" <<'PY' | tee "$OUT/torch-vs-kb.json"
import json, sys
n, e = int(sys.argv[1]), float(sys.argv[2])
kb = json.load(open(sys.argv[3]))["totals"]
eng = 60 * n / e if e else None
print(json.dumps({"impls": n, "engine_wall_s": e, "engine_per_min": eng, "kb_loop": kb,
                  "ratio": eng / kb["candidates_per_min"] if eng and kb.get("candidates_per_min") else None}, indent=1))
PY
    ;;
  torch-rollouts)  # tools/gpu-check.sh torch-rollouts TASK_DIR N: torch-vs-kb on N distinct candidates of one task
                   # (bench/rollout_variants.py), the many-candidates-per-task regime of RL (KB_DEADLINE caps the loop)
    rel=$(python3 bench/rollout_variants.py "$2" --n "${3:-16}" --out build/rollouts | sed 's/^.* in //')
    bash "$0" torch-vs-kb "$rel" ;;
  smoke)
    "$bin" eval --root data/tasks --task elementwise/saxpy \
      --candidate data/tasks/c2cuda/elementwise/saxpy/impls/vectorized.cu | tee "$OUT/smoke.txt" ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac

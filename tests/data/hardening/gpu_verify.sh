#!/usr/bin/env bash
# Issue 18 hardening, the parts only the GPU machine can answer (run there from the repo root, with
# build/gpu-bundle from tools/bundle-gpu.sh; no network needed). Writes $OUT/hardening.json and logs.
#  1. its host compiler's fortify default, and that compile_cuda's flags give the same imports there
#  2. GNU_STACK of the CUDA driver/runtime/NVML/torch libraries (an executable-stack request would
#     make every thread started after lock_down need PROT_EXEC memory, which the filter refuses)
#  3. the new seccomp rules (no new executable memory, other ABIs, openat2, memfd_create, prlimit64)
#     against real CUDA: C-to-CUDA tasks and torch2cuda tasks with the rules on, and again with
#     CUDAPERF_ALLOW_EXEC_MAPPINGS=1, verdict for verdict (any difference is a rule CUDA needs)
#  4. the hardening red-team rows on the GPU path
# Usage: OUT=/tmp/out bash tests/data/hardening/gpu_verify.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH"
export CUDAPERF_PYTHON_DIR="$PWD/python" CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
export CUDAPERF_CONFINE_LIB=${CUDAPERF_CONFINE_LIB:-$PWD/build/gpu-bundle/libcudaperf_confine.so}
bin=build/gpu-bundle/cudaperf
tmp=$(mktemp -d)

# 1. fortify: what this gcc does by default, and the imports of one candidate built both ways
printf '#include <stdio.h>\nint main(int c, char** v) { printf("%%s\\n", v[c - 1]); return 0; }\n' > "$tmp/f.c"
gcc_default=$(gcc -O2 -S -o - "$tmp/f.c" 2>/dev/null | grep -c '__printf_chk')
base=(-arch=sm_90 -std=c++17 -O3 -Xcompiler -fPIC -shared -cudart shared)
nvcc "${base[@]}" tests/redteam/fortified_printf.cu -o "$tmp/default.so" > "$OUT/fortify_build.log" 2>&1
nvcc "${base[@]}" -Xcompiler -U_FORTIFY_SOURCE,-D_FORTIFY_SOURCE=0 tests/redteam/fortified_printf.cu -o "$tmp/ours.so" >> "$OUT/fortify_build.log" 2>&1
chk_default=$(nm -D --undefined-only "$tmp/default.so" 2>/dev/null | grep -o '__[a-z0-9_]*_chk' | sort -u | tr '\n' ' ')
chk_ours=$(nm -D --undefined-only "$tmp/ours.so" 2>/dev/null | grep -o '__[a-z0-9_]*_chk' | sort -u | tr '\n' ' ')

# 2. executable-stack requests among the libraries a confined worker has loaded
stacks=""
for lib in $(ldconfig -p | grep -oE '/[^ ]*lib(cuda|cudart|nvidia-ml)\.so[.0-9]*$' | sort -u) \
           $(python3 -c 'import torch, os; d = os.path.join(os.path.dirname(torch.__file__), "lib"); print(" ".join(os.path.join(d, f) for f in os.listdir(d) if ".so" in f))' 2>/dev/null); do
  f=$(readelf -lW "$lib" 2>/dev/null | awk '$1 == "GNU_STACK" {print $7}')
  [ "$f" = "RWE" ] && stacks="$stacks $lib"
done

# 3. the rules against real CUDA: the same tasks with and without the executable-memory rules
ctasks=${C_TASKS:-"elementwise/saxpy reduction/row_l2_norm sparse_graph/spmv_csr_f32 stencil/jacobi2d_5pt histogram/hist2d_f64"}
root=$tmp/tasks
for t in $ctasks; do mkdir -p "$root/c2cuda/$(dirname "$t")"; cp -r "data/tasks/c2cuda/$t" "$root/c2cuda/$t"; done
for mode in on off; do
  env_set=(); [ $mode = off ] && env_set=(CUDAPERF_ALLOW_EXEC_MAPPINGS=1)
  env "${env_set[@]}" CUDAPERF_CACHE_DIR=$tmp/cache timeout 500 "$bin" tasks check-gpu "$root" --time-budget 1 \
    --records "$OUT/rules_$mode.jsonl" > "$OUT/rules_$mode.txt" 2> "$OUT/rules_$mode.log"
done
ttasks=${TORCH_TASKS:-"data/tasks/torch2cuda/activations/elu data/tasks/torch2cuda/activations/gelu_erf"}
for mode in on off; do
  env_set=(); [ $mode = off ] && env_set=(CUDAPERF_ALLOW_EXEC_MAPPINGS=1)
  for d in $ttasks; do
    env "${env_set[@]}" CUDAPERF_CACHE_DIR=$tmp/cache timeout 600 "$bin" tasks check-gpu "$d" --time-budget 1 \
      >> "$OUT/torch_rules_$mode.txt" 2>> "$OUT/torch_rules_$mode.log"
  done
done

# 4. the hardening red-team rows, GPU path (not --no-gpu)
: > "$OUT/redteam_hardening.txt"
for f in fortified_printf mprotect_exec got_overwrite raw_syscall_open_maps int80_syscall raw_syscall_write asm_socket; do
  out=$(CUDAPERF_CACHE_DIR=$tmp/cache "$bin" eval --root data/tasks --task elementwise/saxpy --candidate "tests/redteam/$f.cu" --time-budget 1 --json 2>&1)
  v=$(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["verdict"], "|", (j["message"] or "").splitlines()[0][:160] if j["message"] else "")' <<<"$out" 2>/dev/null || echo "no-json")
  printf '%-24s want %-34s got %s\n' "$f" "$(sed -n 's|^// expect: *||p' "tests/redteam/$f.cu" | head -1)" "$v" >> "$OUT/redteam_hardening.txt"
done

python3 - "$OUT" "$gcc_default" "$chk_default" "$chk_ours" "$stacks" <<'PY'
import json, sys, re
out, gcc_default, chk_default, chk_ours, stacks = sys.argv[1:]
def verdicts(path):
    try:
        rows = [json.loads(l) for l in open(path) if l.strip()]
    except OSError:
        return {}
    return {f'{r.get("task")}/{r.get("impl")}/{r.get("config", "")}': r.get("status") or r.get("verdict") for r in rows}
on, off = verdicts(f"{out}/rules_on.jsonl"), verdicts(f"{out}/rules_off.jsonl")
def text(path):
    try:
        return open(path).read()
    except OSError:
        return ""
report = {
    "gcc_fortifies_by_default": int(gcc_default) > 0,
    "chk_imports_default_flags": chk_default.split(),
    "chk_imports_compile_cuda_flags": chk_ours.split(),  # must be []
    "libraries_asking_for_executable_stacks": stacks.split(),  # must be []
    "c2cuda_records_rules_on": len(on), "c2cuda_records_rules_off": len(off),
    "c2cuda_differences": {k: [on.get(k), off.get(k)] for k in sorted(set(on) | set(off)) if on.get(k) != off.get(k)},
    "c2cuda_sigsys_lines_rules_on": len(re.findall(r"SIGSYS|forbidden system call", text(f"{out}/rules_on.txt") + text(f"{out}/rules_on.log"))),
    "torch_sigsys_lines_rules_on": len(re.findall(r"SIGSYS|forbidden system call|Bad system call", text(f"{out}/torch_rules_on.txt") + text(f"{out}/torch_rules_on.log"))),
    "torch_sigsys_lines_rules_off": len(re.findall(r"SIGSYS|forbidden system call|Bad system call", text(f"{out}/torch_rules_off.txt") + text(f"{out}/torch_rules_off.log"))),
    "redteam": text(f"{out}/redteam_hardening.txt").splitlines(),
}
json.dump(report, open(f"{out}/hardening.json", "w"), indent=2)
print(json.dumps(report, indent=2))
PY

# shellcheck shell=bash
# Sourced by every device-machine job (tools/gpu/<job>.sh): argument helpers, and gpu_env, which
# puts the repository root in the working directory, the bundle's libraries and CUDA on the paths, and
# $OUT (./gpu-out when unset) as an absolute path (some jobs cd).
job_script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
job=$(basename "$0" .sh)
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
bin=build/gpu-bundle/cudaperf

# --help: the job script's header comment (line 2 up to the first line that is not a comment).
show_help() {
  awk 'NR > 1 && !/^#/ { exit } NR == 2 { printf "usage: tools/gpu-check.sh " } NR > 1 { sub(/^# ?/, ""); print }' "$job_script"
}
usage_error() {
  echo "$job: $*" >&2
  echo "usage: tools/gpu-check.sh $(sed -n 2p "$job_script" | sed 's/^# *//')   (--help for more)" >&2
  exit 2
}
die() { echo "$job: $*" >&2; exit 2; }
# need_value "$@": the option in $1 takes the next argument.
need_value() { [ $# -ge 2 ] || usage_error "$1 needs a value"; }
check_number() { [[ $2 =~ ^[0-9]+([.][0-9]+)?$ ]] || usage_error "$1 wants a number, got '$2'"; }
check_count() { [[ $2 =~ ^[0-9]+$ ]] || usage_error "$1 wants a whole number, got '$2'"; }
check_dir() { [ -d "$1" ] || die "no such folder: $1"; }
# budget_and_folders DEFAULT "$@": the jobs of the form `JOB [--time-budget S] [FOLDER...]`; sets
# budget (seconds of sampling per perf config: --time-budget, else $TIME_BUDGET, else DEFAULT) and
# folders (each checked to exist; empty when none was given).
# shellcheck disable=SC2034 # budget and folders are read by the job that calls it
budget_and_folders() {
  budget=${TIME_BUDGET:-$1}; shift
  folders=()
  while [ $# -gt 0 ]; do
    case "$1" in
      -h|--help) show_help; exit 0 ;;
      --time-budget) need_value "$@"; check_number "$1" "$2"; budget=$2; shift 2 ;;
      -*) usage_error "unknown option $1" ;;
      *) folders+=("$1"); shift ;;
    esac
  done
  local d
  for d in "${folders[@]}"; do check_dir "$d"; done
}
# no_arguments "$@": a job that takes none but --help.
no_arguments() {
  case "${1:-}" in
    "") ;;
    -h|--help) show_help; exit 0 ;;
    *) usage_error "takes no arguments, got $1" ;;
  esac
}

# gpu_setup: fails before touching $OUT when the bundle's binary is absent; gpu_env: the rest.
gpu_setup() {
  [ -x "$bin" ] || die "$PWD/$bin is missing: build the bundle here with tools/bundle-gpu.sh and carry build/gpu-bundle"
  gpu_env
}
gpu_env() {
  OUT=${OUT:-gpu-out}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
  export LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  export PATH="/usr/local/cuda/bin:$PATH"
  export CUDAPERF_CACHE_DIR=${CUDAPERF_CACHE_DIR:-/tmp/cudaperf-cache}
  export CUDAPERF_PYTHON_DIR="$PWD/python"  # the binary's built-in path is the build machine's checkout
  # torch2cuda jobs: the interpreter with torch, and the candidate worker's confinement from the bundle
  export CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
  export CUDAPERF_CONFINE_LIB=${CUDAPERF_CONFINE_LIB:-$PWD/build/gpu-bundle/libcudaperf_confine.so}
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/device.csv" 2>&1
}

# Nsight Compute's command line: on the PATH or in its usual install folders; empty when absent.
find_ncu() {
  local c
  command -v ncu && return
  for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
    if [ -x "$c" ]; then echo "$c"; return; fi
  done
}

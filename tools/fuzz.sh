#!/usr/bin/env bash
# Grows the kept libFuzzer corpora: builds the fuzz targets (preset `fuzz`, clang), seeds each
# target's corpus from the repo, fuzzes it for SECONDS (default 300) and merges it back into a
# minimal set in fuzz/corpus/TARGET/ (crashes land in fuzz/artifacts/).
#   tools/fuzz.sh [TARGET|all] [SECONDS]     targets: fuzz/CMakeLists.txt (task_toml ptx ...)
#   tools/fuzz.sh SECONDS                    every target
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} =~ ^[0-9]+$ ]]; then set -- all "$1"; fi
which=${1:-all}
secs=${2:-300}
targets=$(sed -n 's/^set(CUDAPERF_FUZZ_TARGETS \(.*\))$/\1/p' fuzz/CMakeLists.txt)
[[ $which == all ]] || { [[ " $targets " == *" $which "* ]] || { echo "unknown target: $which (one of: $targets)" >&2; exit 2; }; targets=$which; }

cmake --preset fuzz >/dev/null
read -ra names <<< "$targets"
cmake --build --preset fuzz --target "${names[@]/#/fuzz_}" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Inputs from the repo that a target's corpus should always cover: OUT, then find's roots and
# tests (small files only).
seed() {
  local out=$1 f
  shift
  while IFS= read -r f; do cp "$f" "$out/seed-$(echo "$f" | md5sum | cut -c1-12)"; done < <(find "$@" -type f -size -32k)
}
seed_target() {
  local name=$1 out=$2
  case $name in
    task_toml)
      seed "$out" data/tasks tests/data -name task.toml
      printf '=n*(m+1)/2' > "$out/seed-expr1"; printf '=cdiv(n,32)*log2(m)' > "$out/seed-expr2" ;;
    ptx) seed "$out" tests/analysis tests/data -name '*.ptx' ;;
    launch_scan)
      seed "$out" data/tasks -path '*/impls/*.cu'
      seed "$out" tests/redteam tests/data/analyze tests/analysis -name '*.cu' ;;
    torch_channel | line_channel) ;;  # hand-made seeds only, kept in the corpus
  esac
}

for name in $targets; do
  bin=build/fuzz/fuzz_$name
  kept=fuzz/corpus/$name
  mkdir -p "$kept" fuzz/artifacts "$tmp/$name/work" "$tmp/$name/seeds" "$tmp/$name/min"
  seed_target "$name" "$tmp/$name/seeds"
  cp -r "$kept/." "$tmp/$name/work/"
  "$bin" -max_total_time="$secs" -timeout=30 -artifact_prefix="fuzz/artifacts/$name-" \
    "$tmp/$name/work" "$tmp/$name/seeds" 2>&1 | grep -E '^(#[0-9]+[[:space:]]+DONE|Done |==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' || true
  # Minimal by edge coverage (no hit counts), so that the kept corpus stays small.
  "$bin" -merge=1 -use_counters=0 "$tmp/$name/min" "$tmp/$name/work" "$tmp/$name/seeds" >/dev/null 2>&1
  rm -rf "$kept" && mkdir -p "$kept" && cp "$tmp/$name/min/"* "$kept/"
  echo "$name: $(find "$kept" -type f | wc -l) inputs, $(du -sk "$kept" | cut -f1) KiB"
done

#!/usr/bin/env bash
# tools/ptxas-overlay.sh (the toolkit's nvcc with the pinned newer ptxas of requirements/ptxas.txt):
# 1. the overlay's nvcc builds the ptxas 13.0 reproducer (bench/toolchain/vimnmx_relu_predicate.cu)
#    without the faulty predicated VIMNMX.RELU (nvdisasm of the same wheel reads the cubin);
# 2. `cudaperf eval` builds a C-to-CUDA candidate through it (CUDAPERF_NVCC), and the compile cache
#    keeps that build apart from the stock toolkit's, also when only the ptxas beside the same nvcc path
#    differs (compile::toolchain_id): a new build each time, not a hit.
# The stock ptxas's result is printed, not asserted (a toolkit upgrade may fix it).
# Usage: check_ptxas_overlay.sh CUDAPERF OVERLAY_DIR
set -uo pipefail
bin=$1 overlay=$2
src=$(cd "$(dirname "$0")/.." && pwd)
command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] || { echo "no nvcc: skipping"; exit 77; }
bash "$src/tools/ptxas-overlay.sh" "$overlay" || { echo "FAIL: tools/ptxas-overlay.sh"; exit 1; }
nvdisasm=$overlay/wheel/nvidia/cu13/bin/nvdisasm
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
faulty='VIMNMX.RELU R[0-9]+, P[0-6]'
"$overlay/bin/nvcc" -arch=sm_90 -O3 -cubin -o "$tmp/new.cubin" "$src/bench/toolchain/vimnmx_relu_predicate.cu" ||
  { echo "FAIL: the overlay's nvcc does not build the reproducer"; exit 1; }
"$nvdisasm" --print-code "$tmp/new.cubin" > "$tmp/new.sass" || { echo "FAIL: nvdisasm"; exit 1; }
grep -q 'VIMNMX' "$tmp/new.sass" || { echo "FAIL: no VIMNMX at all in the overlay's cubin (the reproducer changed?)"; status=1; }
if grep -qE "$faulty" "$tmp/new.sass"; then echo "FAIL: the overlay's ptxas emits the faulty pattern:"; grep -E "$faulty" "$tmp/new.sass"; status=1
else echo "ok   overlay ptxas ($("$overlay/bin/ptxas" --version | tail -1)): no predicated VIMNMX.RELU"; fi
stock=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if "$stock" -arch=sm_90 -O3 -cubin -o "$tmp/old.cubin" "$src/bench/toolchain/vimnmx_relu_predicate.cu" 2>/dev/null &&
   "$nvdisasm" --print-code "$tmp/old.cubin" > "$tmp/old.sass" && grep -qE "$faulty" "$tmp/old.sass"; then
  echo "note stock ptxas ($("$stock" --version | tail -1)): emits the faulty pattern"
else echo "note stock ptxas: no faulty pattern (fixed in this toolkit?)"; fi
# the engine through the overlay, and the cache keeping the two builds apart
export CUDAPERF_CACHE_DIR=$tmp/cache
cand=$src/data/tasks/c2cuda/elementwise/saxpy/impls/vectorized.cu
count() { find "$CUDAPERF_CACHE_DIR" -name '*.so' | wc -l; }
CUDAPERF_NVCC=$stock "$bin" eval --root "$src/data/tasks" --task elementwise/saxpy --candidate "$cand" --no-gpu --json > "$tmp/a.json" 2>&1
n1=$(count)
CUDAPERF_NVCC=$overlay/bin/nvcc "$bin" eval --root "$src/data/tasks" --task elementwise/saxpy --candidate "$cand" --no-gpu --json > "$tmp/b.json" 2>&1
rc=$?
n2=$(count)
built=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/b.json" 2>/dev/null)
if [ "$built" = compile_error ] || [ "$built" = link_error ] || [ -z "$built" ]; then
  echo "FAIL: eval through the overlay (exit $rc, verdict '$built')"; head -20 "$tmp/b.json"; status=1
else echo "ok   eval through the overlay: built (verdict $built, exit $rc)"; fi
if [ "$n2" -gt "$n1" ]; then echo "ok   the cache kept the overlay's build apart ($n1 -> $n2 objects)"
else echo "FAIL: the overlay's build came from the stock toolkit's cache entry ($n1 -> $n2 objects)"; status=1; fi
# the same nvcc path with another ptxas beside it (the nvcc command line unchanged): a new build too
cp -r "$overlay/bin" "$tmp/swapped" && rm "$tmp/swapped/ptxas" && ln -s "$(readlink -f "$(dirname "$(readlink -f "$stock")")/ptxas")" "$tmp/swapped/ptxas"
mv "$overlay/bin" "$tmp/bin.keep" && mv "$tmp/swapped" "$overlay/bin"
CUDAPERF_NVCC=$overlay/bin/nvcc "$bin" eval --root "$src/data/tasks" --task elementwise/saxpy --candidate "$cand" --no-gpu --json > /dev/null 2>&1
n3=$(count)
rm -rf "${overlay:?}/bin" && mv "$tmp/bin.keep" "$overlay/bin"
if [ "$n3" -gt "$n2" ]; then echo "ok   another ptxas beside the same nvcc is a new build ($n2 -> $n3 objects)"
else echo "FAIL: a build with another ptxas beside the same nvcc came from the cache ($n2 -> $n3 objects)"; status=1; fi
# the device machine's way (no network): the same ptxas given as a file, xz-compressed
xz -c "$overlay/wheel/nvidia/cu13/bin/ptxas" > "$tmp/ptxas.xz"
if PTXAS=$tmp/ptxas.xz bash "$src/tools/ptxas-overlay.sh" "$tmp/given" > /dev/null &&
   "$tmp/given/bin/nvcc" -arch=sm_90 -O3 -cubin -o "$tmp/given.cubin" "$src/bench/toolchain/vimnmx_relu_predicate.cu" &&
   cmp -s "$tmp/given.cubin" "$tmp/new.cubin"; then echo "ok   PTXAS=FILE.xz: the same cubin"
else echo "FAIL: the overlay from PTXAS=FILE.xz does not give the same cubin"; status=1; fi
exit $status

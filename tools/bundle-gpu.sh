#!/usr/bin/env bash
# Builds the release binary here and packs it (stripped) with every shared library it needs beyond
# glibc, libstdc++ and the CUDA runtime — the GPU machine's image lacks most of them — into
# build/gpu-bundle/ (pass that folder to the device tool's `carry`).
# BIN=path/to/cudaperf bundles an already built binary instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release >/dev/null
  BIN=build/release/cudaperf
fi
rm -rf build/gpu-bundle && mkdir -p build/gpu-bundle/lib
strip -o build/gpu-bundle/cudaperf "$BIN"
# the torch2cuda candidate worker's confinement (LD_PRELOAD-ed; found next to the binary)
conf="$(dirname "$BIN")/libcudaperf_confine.so"
[ -f "$conf" ] || conf=$(find "$(dirname "$BIN")" -name libcudaperf_confine.so | head -1)
if [ -z "$conf" ] || [ ! -f "$conf" ]; then echo "bundle-gpu: libcudaperf_confine.so not found beside $BIN" >&2; exit 1; fi
cp -L "$conf" build/gpu-bundle/libcudaperf_confine.so
# the launcher worker the measurer starts for every candidate (found next to the binary)
strip -o build/gpu-bundle/cudaperf-launcher "$(dirname "$BIN")/cudaperf-launcher"
{ ldd "$BIN"; ldd "$(dirname "$BIN")/cudaperf-launcher"; } | sort -u | awk '/=> \/(usr\/)?lib\/x86_64/ {print $3}' \
  | grep -vE '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+)\.so' \
  | while read -r lib; do cp -L "$lib" build/gpu-bundle/lib/; done
du -sh build/gpu-bundle
# Smoke test of the bundled binary before any device time goes to it: the torch worker in its CPU test
# mode through `tasks check-gpu` (the device's path: prebuild, judge, records) on the leaky_relu fixture.
# Its CUDA impls cannot load on a CPU, so exit 1 (problems) is expected; a crash (exit >= 128) is not.
# On 2026-12-07 a release tree with stale objects passed `cmake --build` and segfaulted in
# judge_candidate on the GPU for every torch task. Needs a python with torch (CUDAPERF_PYTHON, else
# the tests' venv build/ci/rl-venv); skipped with a warning without one.
py=${CUDAPERF_PYTHON:-build/ci/rl-venv/bin/python}
if "$py" -c "import torch" 2>/dev/null; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/root/torch2cuda/elementwise"
  cp -r tests/data/torch_tasks/torch2cuda/elementwise/leaky_relu "$tmp/root/torch2cuda/elementwise/"
  bash tests/shrink_torch_fixtures.sh "$tmp/root" || exit 1
  rc=0
  CUDAPERF_PYTHON=$py CUDAPERF_TORCH_TEST_MODE=1 LD_LIBRARY_PATH="$PWD/build/gpu-bundle/lib:${LD_LIBRARY_PATH:-}" \
    build/gpu-bundle/cudaperf tasks check-gpu "$tmp/root" --time-budget 0.1 > "$tmp/smoke.txt" 2>&1 || rc=$?
  if [ "$rc" -ge 2 ] || ! grep -q '^check-gpu: 1 torch2cuda task' "$tmp/smoke.txt"; then
    echo "bundle-gpu: the bundled binary failed its smoke test (exit $rc); rebuild from clean (rm -rf build/release):" >&2
    tail -5 "$tmp/smoke.txt" >&2
    rm -rf build/gpu-bundle
    exit 1
  fi
  echo "bundle-gpu: smoke test passed (torch worker in CPU test mode, tasks check-gpu)"
else
  echo "bundle-gpu: WARNING: no python with torch ($py): the bundle's smoke test was skipped" >&2
fi

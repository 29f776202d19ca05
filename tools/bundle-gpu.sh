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

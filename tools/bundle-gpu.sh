#!/usr/bin/env bash
# Builds the release binary here and packs it with the shared libraries it needs that the GPU
# machine's image lacks, into build/gpu-bundle/ (pass that folder to the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release >/dev/null
rm -rf build/gpu-bundle && mkdir -p build/gpu-bundle/lib
cp build/release/cudaperf build/gpu-bundle/
for lib in libfmt.so.9 libtomlplusplus.so.3 libffi.so.8 libxxhash.so.0 libseccomp.so.2; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" build/gpu-bundle/lib/
done
du -sh build/gpu-bundle

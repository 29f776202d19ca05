#!/usr/bin/env bash
# Installs the dependencies, builds the `ci` preset and runs the whole test suite. GPU tests
# (ctest label `gpu`) skip themselves where no GPU is visible.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci

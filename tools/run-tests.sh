#!/usr/bin/env bash
# Installs the dependencies, builds the `ci` preset and runs the whole test suite (GPU tests, ctest
# label `gpu`, skip themselves where no GPU is visible); then the unit tests under AddressSanitizer
# + UBSan (preset `asan`) and a short libFuzzer run of every parser of untrusted input (preset
# `fuzz`, 60 s a target, over copies of the kept corpora).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci
bash tests/check_asan.sh
bash tests/check_fuzz.sh 60

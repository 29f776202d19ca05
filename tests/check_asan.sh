#!/usr/bin/env bash
# CI: builds the `asan` preset (AddressSanitizer + UBSan; unit_tests and cudaperf only) and runs the
# GoogleTest cases under it (GPU cases skip without a GPU). Any sanitizer report fails the run.
#   tests/check_asan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" --target unit_tests cudaperf
# halt_on_error: UBSan only prints by default. protect_shadow_gap=0: the CUDA driver maps memory
# where ASan would otherwise reserve its shadow gap.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=protect_shadow_gap=0:detect_stack_use_after_return=1
# The GoogleTest cases are the Suite.Name tests; the script tests (lower-case names) need the
# whole tree and run in the `ci` preset.
ctest --preset asan -R '^[A-Z]' -j "$(nproc)"

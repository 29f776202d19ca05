#!/usr/bin/env bash
# ctest lint.headers: every public header (include/cudaperf/**/*.hpp) compiles on its own, so that
# it includes what it uses. One `-fsyntax-only` run per header, with the ci preset's warnings.
# Usage: tests/lint/headers.sh CXX INCLUDE_DIR [LIBRARY_INCLUDE_DIRS...]   (empty ones are ignored)
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: headers.sh CXX INCLUDE_DIR [MORE_INCLUDE_DIRS...]" >&2; exit 2; }
cxx=$1 include=$2; shift 2
flags=(-std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I "$include")
for d in "$@"; do [ -n "$d" ] && flags+=(-isystem "$d"); done  # as CMake passes imported targets' folders
shopt -s nullglob globstar
n=0 bad=0
for h in "$include"/cudaperf/**/*.hpp "$include"/cudaperf/**/*.h; do
  rel=${h#"$include"/}
  n=$((n + 1))
  if ! out=$(printf '#include "%s"\n' "$rel" | "$cxx" "${flags[@]}" -x c++ - 2>&1); then
    printf '%s does not compile on its own:\n%s\n' "$rel" "$out"
    bad=$((bad + 1))
  fi
done
[ "$n" -gt 0 ] || { echo "lint.headers: no headers under $include/cudaperf"; exit 1; }
echo "lint.headers: $n headers, $bad not self-contained"
[ "$bad" -eq 0 ]

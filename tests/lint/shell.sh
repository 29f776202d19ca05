#!/usr/bin/env bash
# ctest lint.shell: shellcheck over the shell scripts.
#   tools/ and tests/lint/: every finding, style included (these are kept clean).
#   tests/*.sh, tests/redteam/*.sh: warnings and errors only. Their notes are mostly SC2015, the
#   `[ cond ] && pass || fail` assertion idiom the checks are written in, where the || branch
#   running after a failing "pass" is harmless.
# Usage: tests/lint/shell.sh [REPO_ROOT]   (exits 1 and prints the findings when there are any)
set -uo pipefail
cd "${1:-$(dirname "$0")/../..}" || exit 2
command -v shellcheck >/dev/null || { echo "lint.shell: shellcheck is not installed (tools/install-deps.sh)"; exit 1; }
shopt -s nullglob globstar
strict=(tools/**/*.sh tests/lint/*.sh)
lenient=(tests/*.sh tests/redteam/*.sh)
status=0
# -x: follow `source` (tools/gpu/*.sh name tools/gpu/common.sh relative to this root)
shellcheck -x -f gcc "${strict[@]}" || status=1
shellcheck -x -f gcc -S warning "${lenient[@]}" || status=1
echo "lint.shell: $(( ${#strict[@]} + ${#lenient[@]} )) scripts, $([ $status -eq 0 ] && echo clean || echo 'findings above')"
exit $status

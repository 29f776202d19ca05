#!/usr/bin/env bash
# ctest lint.python: `tests/check_python_lint.sh VENV` runs ruff check and mypy on python/cudaperf
# (their config: python/pyproject.toml) from VENV, which tests/rl_env.sh installs from
# requirements/lint.txt. Caches go into VENV, not the source tree. Fails on any finding of either.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$(realpath -m "$1")"
bash "$here/tests/rl_env.sh" "$venv" --requirements "$here/requirements/lint.txt"
cd "$here/python"
rc=0
"$venv/bin/ruff" check --cache-dir "$venv/cache/ruff" cudaperf || rc=1
"$venv/bin/mypy" --cache-dir "$venv/cache/mypy" || rc=1  # the files of pyproject.toml's [tool.mypy]
exit "$rc"

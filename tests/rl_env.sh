#!/usr/bin/env bash
# The virtual environment of the RL engine tests: `tests/rl_env.sh VENV [--requirements FILE] [-- ARGS...]`
# creates VENV (python3 -m venv) and installs FILE (default requirements/rl-engines.txt) into it with
# --no-deps when VENV is missing or was installed from another version of that file; then, with ARGS,
# runs `VENV/bin/python ARGS`. Concurrent callers wait on a lock; the install is logged to VENV.log.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$1"
shift
req="$here/requirements/rl-engines.txt"
if [ "${1:-}" = "--requirements" ]; then
  req="$2"
  shift 2
fi
want="$(sha256sum "$req" | cut -d' ' -f1)"
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if [ "$(cat "$venv/.requirements-sha256" 2>/dev/null)" != "$want" ]; then
  rm -rf "$venv"
  start=$(date +%s)
  echo "rl_env: installing $req into $venv (rl-engines.txt: about 10 minutes the first time; log $venv.log)" >&2
  python3 -m venv "$venv"
  if ! "$venv/bin/python" -m pip install -q --no-deps --disable-pip-version-check -r "$req" >"$venv.log" 2>&1; then
    tail -30 "$venv.log" >&2
    echo "rl_env: pip install failed" >&2
    exit 1
  fi
  echo "$want" >"$venv/.requirements-sha256"
  echo "rl_env: installed in $(( $(date +%s) - start )) s" >&2
fi
flock -u 9
if [ "${1:-}" = "--" ]; then
  shift
  exec "$venv/bin/python" "$@"
fi

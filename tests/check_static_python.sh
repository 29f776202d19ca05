#!/usr/bin/env bash
# The torch static guards run under the worker's interpreter (CUDAPERF_PYTHON), so the grammar that
# parses a candidate is the one that imports it; CUDAPERF_STATIC_PYTHON overrides. A wrapper
# interpreter logs each run of torch_static and passes on to python3.
set -uo pipefail
bin=$1 root=$2 candidate=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for w in worker static; do
  printf '#!/bin/sh\ncase "$*" in *torch_static*) echo run >> %s/%s.log ;; esac\nexec python3 "$@"\n' "$tmp" "$w" > "$tmp/$w-python"
  chmod +x "$tmp/$w-python"
done
status=0
run() { "$bin" eval --root "$root" --task torch2cuda/elementwise/leaky_relu --candidate "$candidate" --no-gpu --json > "$tmp/out.json" 2>&1; }
unset CUDAPERF_STATIC_PYTHON
CUDAPERF_PYTHON=$tmp/worker-python run
if [ -s "$tmp/worker.log" ]; then echo "ok   the guards ran under CUDAPERF_PYTHON"
else echo "FAIL: the guards did not run under CUDAPERF_PYTHON"; head -20 "$tmp/out.json"; status=1; fi
rm -f "$tmp/worker.log"
CUDAPERF_PYTHON=$tmp/worker-python CUDAPERF_STATIC_PYTHON=$tmp/static-python run
if [ -s "$tmp/static.log" ] && [ ! -s "$tmp/worker.log" ]; then echo "ok   CUDAPERF_STATIC_PYTHON overrides it"
else echo "FAIL: CUDAPERF_STATIC_PYTHON did not override CUDAPERF_PYTHON for the guards"; status=1; fi
grep -q '"verdict": *"hack_suspected"' "$tmp/out.json" || { echo "FAIL: the candidate was not judged by the guards"; head -20 "$tmp/out.json"; status=1; }
exit $status

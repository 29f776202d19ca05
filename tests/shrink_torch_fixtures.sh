#!/usr/bin/env bash
# CPU-sized perf configs for the torch fixtures under ROOT (a copy of tests/data/torch_tasks or part of
# it): the fixtures' own perf sizes are for a GPU. Each fixture present under ROOT is shrunk; one whose
# perf line is not the expected one fails here (a changed fixture must be seen, not run at GPU size).
# Usage: bash tests/shrink_torch_fixtures.sh ROOT
set -uo pipefail
root=$1 status=0
shrink() {  # task-path old-config new-config
  local f="$root/$1/task.toml"
  [ -f "$f" ] || return 0
  if ! grep -qF -- "$2" "$f"; then echo "shrink_torch_fixtures: $f lacks '$2'" >&2; status=1; return; fi
  python3 -c 'import sys; p, a, b = sys.argv[1:]; s = open(p).read(); open(p, "w").write(s.replace(a, b))' "$f" "$2" "$3" || status=1
}
shrink torch2cuda/elementwise/leaky_relu '{ name = "perf", batch_size = 4096, dim = 16384 }' '{ name = "perf", batch_size = 64, dim = 4096 }'
shrink torch2cuda/linear/affine_relu '{ name = "perf", batch_size = 2048, in_features = 2048, out_features = 2048 }' \
  '{ name = "perf", batch_size = 64, in_features = 256, out_features = 128 }'
exit $status

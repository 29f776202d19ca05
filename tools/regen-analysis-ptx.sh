#!/usr/bin/env bash
# Regenerates the checked-in PTX of every data-driven analysis case (tests/analysis/*/NAME.cu ->
# NAME.ptx) with the flags the cases are written against. Run after changing a case or nvcc.
#   tools/regen-analysis-ptx.sh            # all cases
#   tools/regen-analysis-ptx.sh census     # only tests/analysis/census
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
flags=(-arch=sm_90 -ptx -lineinfo -O3)
shopt -s nullglob
dirs=("$root"/tests/analysis/*/)
if [[ $# -gt 0 ]]; then dirs=(); for d in "$@"; do dirs+=("$root/tests/analysis/$d/"); done; fi
status=0
for dir in "${dirs[@]}"; do
  for cu in "$dir"*.cu; do
    ptx="${cu%.cu}.ptx"
    if (cd "$dir" && "$nvcc" "${flags[@]}" "$(basename "$cu")" -o "$(basename "$ptx")"); then
      # nvcc writes absolute paths into the .file table: make the case's own path repository-relative.
      sed -i "s|\"$root/|\"|" "$ptx"
      echo "regenerated ${ptx#"$root"/}"
    else
      echo "FAILED: ${cu#"$root"/}" >&2
      status=1
    fi
  done
done
exit $status

#!/usr/bin/env bash
# Builds a toolkit overlay: the installed CUDA toolkit's nvcc, with the ptxas of the pinned wheel
# (requirements/ptxas.txt) in its place. nvcc runs the ptxas beside itself (its nvcc.profile puts its
# own folder first on PATH), so DIR/bin holds a link to the real nvcc, an nvcc.profile whose TOP is the
# real toolkit, the wheel's ptxas, and links to nvcc's other tools. Use it with
#   CUDAPERF_NVCC=DIR/bin/nvcc cudaperf ...
# The compile cache tells the two ptxas apart (compile::toolchain_id). Why: bench/toolchain/README.md.
# Usage: tools/ptxas-overlay.sh [DIR]   (default build/toolchain/ptxas-overlay; CUDA_HOME or /usr/local/cuda)
#   PTXAS=FILE takes that ptxas (or FILE.xz, unpacked) instead of installing the wheel: the device machine
#   has no network, so carry `xz -c DIR/wheel/nvidia/cu13/bin/ptxas > build/toolchain/ptxas.xz` there.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/toolchain/ptxas-overlay}
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$cuda/bin/nvcc" ] || { echo "ptxas-overlay: no nvcc at $cuda/bin/nvcc (set CUDA_HOME)" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
ptxas=$dir/wheel/nvidia/cu13/bin/ptxas
if [ -n "${PTXAS:-}" ]; then
  mkdir -p "$dir/given"
  case "$PTXAS" in
    *.xz) xz -dc "$PTXAS" > "$dir/given/ptxas" ;;
    *) cp "$PTXAS" "$dir/given/ptxas" ;;
  esac
  chmod +x "$dir/given/ptxas"
  ptxas=$dir/given/ptxas
elif [ ! -x "$ptxas" ]; then
  python3 -m pip install --quiet --no-deps --require-hashes --target "$dir/wheel" -r requirements/ptxas.txt
fi
rm -rf "${dir:?}/bin" && mkdir -p "$dir/bin"
for tool in "$cuda"/bin/*; do ln -s "$(readlink -f "$tool")" "$dir/bin/$(basename "$tool")"; done
rm -f "$dir/bin/ptxas" "$dir/bin/nvcc.profile"
chmod u+x "$ptxas" "$dir/wheel/nvidia/cu13/bin/nvdisasm" 2>/dev/null || true
ln -s "$ptxas" "$dir/bin/ptxas"
real=$(cd "$(dirname "$(readlink -f "$cuda/bin/nvcc")")/.." && pwd)
sed "s|^TOP *=.*|TOP              = $real|" "$real/bin/nvcc.profile" > "$dir/bin/nvcc.profile"
echo "ptxas-overlay: $dir/bin/nvcc runs $("$dir/bin/ptxas" --version | tail -1)"
echo "use: CUDAPERF_NVCC=$dir/bin/nvcc"

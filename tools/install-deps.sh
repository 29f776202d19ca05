#!/usr/bin/env bash
# Installs every build and test dependency of cudaperf from Debian's packages.
# The CUDA toolkit is expected at /usr/local/cuda (it ships with this kind of machine).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config \
  clang-14 libclang-rt-14-dev \
  nlohmann-json3-dev libtomlplusplus-dev libcli11-dev libfmt-dev \
  libgtest-dev libgmock-dev libbenchmark-dev \
  libsqlite3-dev libffi-dev libxxhash-dev libseccomp-dev binutils libxgboost-dev libcpp-httplib-dev \
  shellcheck clang-format-14 clang-tidy-14 xz-utils >/dev/null
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
  echo "install-deps: nvcc not found (expected /usr/local/cuda/bin/nvcc)" >&2
  exit 1
fi
echo "install-deps: done"

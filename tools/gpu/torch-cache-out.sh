#!/usr/bin/env bash
# torch-cache-out
# The torch build and Inductor caches packed into $OUT, for the next call to carry.
#   The finished extensions and the Inductor cache, as t2c-*.tgz for build/t2c-carry/ (the
#   torch-tasks job unpacks them); a pack over 15 MiB (the device tool's limit on a returned file)
#   is removed.
# Writes under $OUT: t2c-ext.tgz, t2c-inductor.tgz, cache-sizes.txt, device.csv.
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
no_arguments "$@"
gpu_env  # packs files only: no binary needed
du -sh "$CUDAPERF_CACHE_DIR"/* 2>&1 | tee "$OUT/cache-sizes.txt"
(cd "$CUDAPERF_CACHE_DIR" && find torch_ext -mindepth 2 -maxdepth 2 -name '*.so' ! -path '*/tmp-*' | tar czf "$OUT/t2c-ext.tgz" -T -)
[ -d "$CUDAPERF_CACHE_DIR/inductor" ] && tar czf "$OUT/t2c-inductor.tgz" -C "$CUDAPERF_CACHE_DIR" inductor
for f in "$OUT"/t2c-*.tgz; do
  sz=$(stat -c %s "$f"); echo "$(basename "$f") $sz bytes" | tee -a "$OUT/cache-sizes.txt"
  [ "$sz" -le $((15 << 20)) ] || { echo "too large to come back: $f" | tee -a "$OUT/cache-sizes.txt"; rm -f "$f"; }
done

#!/usr/bin/env bash
# ptxas-compare [--time-budget S] FOLDER...
# The same C task folders through the stock toolkit and through the ptxas overlay, each cold.
# The overlay is tools/ptxas-overlay.sh with the ptxas carried in build/toolchain/ptxas.xz (the device
# has no network), used through CUDAPERF_NVCC. Each side gets its own empty compile cache, so its wall
# seconds include every build. Writes under $OUT: stock/ and overlay/ (the dataset job's files, records
# included) and compare.txt (wall seconds, status counts, every (task, impl, config) whose status differs).
set -uo pipefail
# shellcheck source=tools/gpu/common.sh
source "$(dirname "$0")/common.sh"
budget_and_folders 0.5 "$@"
[ ${#folders[@]} -gt 0 ] || usage_error "give at least one C task folder"
[ -f build/toolchain/ptxas.xz ] || die "build/toolchain/ptxas.xz is missing: carry build/toolchain (bench/toolchain/README.md)"
gpu_setup
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# xz may be absent on the device: Python's lzma unpacks it
python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
  build/toolchain/ptxas.xz "$tmp/ptxas" || die "cannot unpack build/toolchain/ptxas.xz"
chmod +x "$tmp/ptxas"
PTXAS=$tmp/ptxas bash tools/ptxas-overlay.sh "$tmp/ov" > "$OUT/overlay-build.txt" 2>&1 || { cat "$OUT/overlay-build.txt"; die "the overlay did not build"; }
{ "$tmp/ov/bin/nvcc" --version | tail -2; "$tmp/ov/bin/ptxas" --version | tail -2; } >> "$OUT/overlay-build.txt" 2>&1
for side in stock overlay; do
  nvcc=()  # the stock side: the default toolkit
  [ "$side" = overlay ] && nvcc=("CUDAPERF_NVCC=$tmp/ov/bin/nvcc")
  mkdir -p "$tmp/cache-$side"
  start=$(date +%s)
  env "${nvcc[@]}" CUDAPERF_CACHE_DIR="$tmp/cache-$side" OUT="$OUT/$side" \
    bash tools/gpu/dataset.sh --time-budget "$budget" "${folders[@]}" > /dev/null
  echo "$side wall seconds: $(( $(date +%s) - start ))" >> "$OUT/compare.txt"
done
python3 - "$OUT" >> "$OUT/compare.txt" <<'PY'
import collections, json, sys, os
out = sys.argv[1]
def load(side):
    recs = {}
    p = os.path.join(out, side, "records.jsonl")
    if os.path.exists(p):
        for line in open(p):
            r = json.loads(line)
            recs[(r["task"], r["impl"], r["config"])] = r
    return recs
s, o = load("stock"), load("overlay")
for name, recs in (("stock", s), ("overlay", o)):
    print(name, "records:", len(recs), dict(collections.Counter(r["status"] for r in recs.values())))
diff = [k for k in sorted(set(s) | set(o)) if (s.get(k) or {}).get("status") != (o.get(k) or {}).get("status")]
print("status differs on", len(diff), "of", len(set(s) | set(o)))
for k in diff:
    print("  ", "/".join(k), "stock:", (s.get(k) or {}).get("status"), "overlay:", (o.get(k) or {}).get("status"))
PY
cat "$OUT/compare.txt"

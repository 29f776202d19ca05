#!/usr/bin/env bash
# The generated tier (docs/generators.md): regenerating from the generators reproduces the committed
# manifest (ids, seeds, splits, content hashes) and the tree byte for byte, c2cuda and torch2cuda tasks.
set -uo pipefail
src=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen="$src/data/generators/gen.py"
python3 "$gen" check --out "$tmp/none" --manifest "$src/data/generators/manifest.json" || exit 1
cp "$src/data/generators/manifest.json" "$tmp/manifest.json"
python3 "$gen" generate --out "$tmp/tree" --manifest "$tmp/manifest.json" || exit 1
python3 "$gen" check --out "$tmp/tree" --manifest "$src/data/generators/manifest.json" || exit 1
cmp -s "$tmp/manifest.json" "$src/data/generators/manifest.json" || { echo "FAIL: regenerating changes manifest.json:"; diff "$src/data/generators/manifest.json" "$tmp/manifest.json" | head -20; exit 1; }
# an edited file is found
f=$(find "$tmp/tree" -name reference.c | sort | head -1)
echo "/* edited */" >> "$f"
if python3 "$gen" check --out "$tmp/tree" --manifest "$src/data/generators/manifest.json" > /dev/null; then echo "FAIL: check missed an edited $f"; exit 1; fi
# and an edited torch2cuda reference.py
f=$(find "$tmp/tree/torch2cuda" -name reference.py | sort | head -1)
[ -n "$f" ] || { echo "FAIL: no torch2cuda task generated"; exit 1; }
echo "# edited" >> "$f"
python3 "$gen" check --out "$tmp/tree" --manifest "$src/data/generators/manifest.json" > /dev/null && { echo "FAIL: check missed an edited $f"; exit 1; }
echo "generators: reproducible"

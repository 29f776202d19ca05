#!/usr/bin/env bash
# `cudaperf reward`: a link-level hack gets the hack gate and nothing else (exit 1); a dataset
# implementation without a GPU is not final (exit 3) but carries structure and rank terms; a bad
# config is exit 2 with the key named.
set -uo pipefail
bin=$1 root=$2 src=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
"$bin" reward --root "$root" --config "$src/config/reward.toml" --model "$src/data/models/ranker.json" \
  --task elementwise/saxpy --candidate "$src/tests/redteam/network.cu" --json > "$tmp/hack.json" 2>&1
[ $? -eq 1 ] || { echo "FAIL: hack exit"; status=1; }
python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); r = j["reward"]
assert j["verdict"] == "link_error" and j["final"], j
assert r["tier"] == "hack" and r["total"] == r["gate"] == -10 and r["structure"] == 0 and r["rank"] == 0, j
' "$tmp/hack.json" || { echo "FAIL: hack reward"; cat "$tmp/hack.json"; status=1; }
"$bin" reward --root "$root" --config "$src/config/reward.toml" --model "$src/data/models/ranker.json" \
  --task elementwise/saxpy --candidate "$root/c2cuda/elementwise/saxpy/impls/vectorized.cu" --json > "$tmp/ok.json" 2>&1
rc=$?
if nvidia-smi -L >/dev/null 2>&1; then want=0; else want=3; fi
[ $rc -eq $want ] || { echo "FAIL: dataset impl exit $rc want $want"; cat "$tmp/ok.json"; status=1; }
python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); gpu = sys.argv[2] == "0"; r = j["reward"]
assert j["final"] == gpu and j["feedback"].startswith("verdict: ok"), j
assert r["structure_score"] is not None and 0 <= r["structure_score"] <= 1, j
assert r["rank_score"] is not None and 0 <= r["rank_score"] <= 1, j
if gpu: assert r["tier"] == "correct_faster" and j["speedup"] > 1, j
' "$tmp/ok.json" "$want" || { echo "FAIL: dataset impl reward"; cat "$tmp/ok.json"; status=1; }
printf '[speed]\nweight = -1\n' > "$tmp/bad.toml"
out=$("$bin" reward --root "$root" --config "$tmp/bad.toml" --task elementwise/saxpy --candidate "$src/tests/redteam/network.cu" 2>&1)
[ $? -eq 2 ] && grep -q "weight" <<<"$out" || { echo "FAIL: bad config: $out"; status=1; }
exit $status

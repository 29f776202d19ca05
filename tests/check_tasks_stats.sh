#!/usr/bin/env bash
# `cudaperf tasks stats`: tiers from the tags, families, types, cooperation patterns, the roofline
# floor buckets and per-device verification from records (tests/data/stats/records.jsonl).
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$src/data/generators/gen.py" generate --out "$tmp/gen" --manifest "$tmp/m.json" --families poly_horner,fft_butterfly,histogram_bins --per-family 2 > /dev/null || exit 1
"$bin" tasks stats --root "$src/tests/data/good_tasks" --root "$tmp/gen" --records "$src/tests/data/stats/records.jsonl" --json > "$tmp/s.json" || { echo "FAIL: stats exit $?"; exit 1; }
"$bin" tasks stats --root "$src/tests/data/good_tasks" --root "$tmp/gen" --records "$src/tests/data/stats/records.jsonl" > "$tmp/s.txt" || exit 1
python3 - "$tmp/s.json" "$tmp/s.txt" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
assert s["tasks"] == 7, s["tasks"]
assert s["by_tier"] == {"curated": {"curated": 1}, "generated": {"generated": 6}}, s["by_tier"]
assert s["by_family"]["poly_horner"] == {"generated": 2} and s["by_family"]["fixture"] == {"curated": 1}, s["by_family"]
assert s["by_split"] == {"heldout": {"generated": 2}, "train": {"curated": 1, "generated": 4}}, s["by_split"]
assert s["by_coop"]["atomic+shared"] == {"generated": 2}, s["by_coop"]          # histograms: privatized + atomics
assert s["by_type"]["unsigned int"] == {"generated": 2} and s["by_type"]["double"]["curated"] == 1, s["by_type"]
fl = s["roofline_floor"]
assert fl["n"] == 7 and sum(fl["buckets"].values()) == 7 and fl["min_us"] <= fl["median_us"] <= fl["max_us"], fl
h200 = s["devices"]["NVIDIA H200"]
assert h200["curated"] == {"verified": 1}, h200                    # the newer ok record supersedes the failure
assert h200["generated"] == {"partial": 1}, h200                   # one of 3 impls x 5 configs measured
assert s["devices"]["NVIDIA A100-SXM4-80GB"]["generated"] == {"failing": 1}, s["devices"]
assert s["devices"]["NVIDIA H100 80GB HBM3"]["curated"] == {"task_error": 1}, s["devices"]  # the task's defect, not an impl's
assert s["unmeasured"] == {"generated": 5}, s["unmeasured"]
for line in ("by tier: curated 1; generated 6", "device NVIDIA H200: curated tasks: 1 verified", "no records: 5 generated task(s)"):
    assert line in txt, (line, txt)
print("tasks stats: ok")
PY
# generated torch2cuda tasks: tier, family, split from their tags (docs/generators.md)
python3 "$src/data/generators/gen.py" generate --out "$tmp/tgen" --manifest "$tmp/tm.json" --families pt_act_chain,pt_where_mask --torch-per-family 2 > /dev/null || exit 1
"$bin" tasks stats --root "$tmp/tgen" --records "$src/tests/data/stats/records.jsonl" --json > "$tmp/t.json" || { echo "FAIL: torch stats exit $?"; exit 1; }
python3 - "$tmp/t.json" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
assert s["by_kind"] == {"torch2cuda": {"generated": 4}}, s["by_kind"]
assert s["by_family"] == {"pt_act_chain": {"generated": 2}, "pt_where_mask": {"generated": 2}}, s["by_family"]
assert s["by_split"] == {"heldout": {"generated": 2}, "train": {"generated": 2}}, s["by_split"]
print("tasks stats (torch2cuda generated): ok")
PY
# a records line that is not a record is reported (exit 1), the rest still counted
printf '{"task": "x"}\n' > "$tmp/bad.jsonl"
"$bin" tasks stats --root "$src/tests/data/good_tasks" --records "$tmp/bad.jsonl" > /dev/null 2> "$tmp/err.txt"
[ $? -eq 1 ] && grep -q "not a record" "$tmp/err.txt" || { echo "FAIL: a malformed record was not reported"; exit 1; }

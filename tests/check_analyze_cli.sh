#!/usr/bin/env bash
# `cudaperf analyze`: the static report of a tiny kernel file (occupancy, resources, JSON shape),
# the roofline of a dataset task, and the exit codes: 1 does not compile, 2 bad usage, 3 --dynamic
# without dynamic analysis. Usage: check_analyze_cli.sh CUDAPERF DATASET_ROOT TEST_DATA_DIR
set -uo pipefail
bin=$1 root=$2 data=$3
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; status=1; }
command -v python3 >/dev/null || { echo "python3 is needed to read the JSON"; exit 77; }

# 1. The tiny file: JSON facts.
"$bin" analyze "$data/tiny.cu" --json >"$tmp/tiny.json" 2>"$tmp/tiny.err"
rc=$?
[ $rc -eq 0 ] || { fail "tiny.cu exit $rc, want 0"; cat "$tmp/tiny.err"; }
python3 - "$tmp/tiny.json" <<'PY' || status=1
import json, sys
r = json.load(open(sys.argv[1]))
bad = []
def want(cond, what):
    if not cond: bad.append(what)
for key in ("file", "task", "arch", "build", "provenance", "peaks", "roofline", "kernels", "warnings", "dynamic"):
    want(key in r, f"top-level key {key}")
want(r["arch"] == "sm_90", "arch")
want(r["task"] is None and r["roofline"] is None, "no task: no roofline")
want(r["dynamic"]["available"] is False, "dynamic not available")
names = [k["name"] for k in r["kernels"]]
want(len(names) == 2, f"two kernels, got {names}")
k = {n.split("(")[0]: x for n, x in zip(names, r["kernels"])}
t, s = k.get("tile_reverse"), k.get("strided_copy")
want(t is not None and s is not None, "kernel names")
if t and s:
    for x in (t, s):
        for key in ("resources", "launch", "occupancy", "census", "coalescing", "intensity", "sync", "scores", "findings"):
            want(key in x, f"{x['name']}: key {key}")
        for f, v in x["scores"].items():
            want(v is None or 0.0 <= v <= 1.0, f"{x['name']}: score {f}={v} outside [0,1]")
        want(x["resources"]["registers"] > 0, "registers from ptxas")
        want(x["occupancy"]["source"].startswith("static"), "occupancy marked static")
    # tile_reverse: __launch_bounds__(128), 40 KB static shared, one barrier.
    want(t["launch"] == {"block_size": 128, "block_size_source": "maxntid", "dynamic_shared_bytes": 0,
                         "dynamic_shared_source": "assumed"}, f"tile_reverse launch {t['launch']}")
    want(t["resources"]["shared_static_bytes"] == 40960, "static smem 40960")
    want(t["resources"]["barriers"] == 1, "one barrier")
    o = t["occupancy"]
    want(o["blocks_per_sm"] == 5 and o["active_warps"] == 20 and o["limiter"] == "shared_memory",
         f"tile_reverse occupancy {o['blocks_per_sm']} blocks, limiter {o['limiter']}")
    want(abs(o["fraction"] - 20 / 64) < 1e-12 and abs(t["scores"]["occupancy"] - 20 / 64) < 1e-12, "fraction 20/64")
    want(o["shared_bytes_per_block"] == 41984, "41 KB per block with the reserved KB")
    want(any(f["kind"] == "occupancy" and "31 %" in f["message"] and "shared memory" in f["message"]
             for f in t["findings"]), "occupancy finding")
    # strided_copy: no bounds -> 256 assumed, full occupancy.
    want(s["launch"]["block_size"] == 256 and s["launch"]["block_size_source"] == "assumed", "assumed block size")
    want(s["occupancy"]["fraction"] == 1.0, "strided_copy occupancy 1")
    want(any(f["kind"] == "assumption" for f in s["findings"]), "assumption stated")
if bad:
    print("FAIL: tiny.cu JSON:\n  " + "\n  ".join(bad))
    sys.exit(1)
PY

# 2. The same facts in the table.
out=$("$bin" analyze "$data/tiny.cu" 2>&1)
grep -q "kernel tile_reverse" <<<"$out" && grep -q "limited by shared_memory" <<<"$out" && grep -q "128 threads/block (maxntid)" <<<"$out" \
  && grep -q "values: static" <<<"$out" || { fail "text report"; echo "$out"; }
# --block-size overrides the assumption for unbounded kernels only.
"$bin" analyze "$data/tiny.cu" --json --block-size 1024 >"$tmp/bs.json" 2>/dev/null
python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); k = {x["name"].split("(")[0]: x for x in r["kernels"]}
assert k["strided_copy"]["launch"]["block_size"] == 1024 and k["strided_copy"]["launch"]["block_size_source"] == "option"
assert k["tile_reverse"]["launch"]["block_size"] == 128' "$tmp/bs.json" || fail "--block-size"

# 3. A dataset kernel with its task: the roofline (12 B and 2 FLOP per element, 4.0e12 B/s default).
"$bin" analyze "$root/c2cuda/elementwise/saxpy/impls/naive.cu" --root "$root" --task elementwise/saxpy --time-ms 4.8 --json \
  >"$tmp/saxpy.json" 2>"$tmp/saxpy.err"
rc=$?
[ $rc -eq 0 ] || { fail "saxpy exit $rc"; cat "$tmp/saxpy.err"; }
python3 - "$tmp/saxpy.json" <<'PY' || status=1
import json, sys
r = json.load(open(sys.argv[1]))
rl = r["roofline"]
perf = [c for c in rl["configs"] if c["config"] == "perf"][0]
n = 400000000
ok = (rl["flops_expr"] == "2*n" and perf["flops"] == 2 * n and perf["bytes"] == 12 * n
      and abs(perf["intensity"] - 1 / 6) < 1e-12 and abs(perf["floor_ms"] - 1.2) < 1e-9 and perf["bound"] == "memory"
      and perf["measured_ms"] == 4.8 and abs(perf["fraction"] - 0.25) < 1e-9 and r["task"] == "elementwise/saxpy"
      and len(r["kernels"]) == 1 and r["kernels"][0]["intensity"]["target_source"] == "task")
if not ok:
    print("FAIL: saxpy roofline", json.dumps(rl, indent=1))
    sys.exit(1)
PY

# 4. Exit codes.
"$bin" analyze "$tmp/no_such_file.cu" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "cannot read" "$tmp/err" || fail "missing file: exit $rc, want 2 with a message"
"$bin" analyze "$data/tiny.cu" --root "$root" --task no/such_task >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no task" "$tmp/err" || fail "unknown task: exit $rc, want 2"
"$bin" analyze "$root/c2cuda/elementwise/saxpy/impls/naive.cu" --root "$root" --task elementwise/saxpy --config nope >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "unknown config: exit $rc, want 2"
"$bin" analyze "$data/broken.cu" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "does not compile" "$tmp/err" && grep -q 'undefined_name' "$tmp/err" \
  || { fail "broken.cu: exit $rc, want 1 with nvcc's error line"; cat "$tmp/err"; }
"$bin" analyze "$data/tiny.cu" --dynamic --json >"$tmp/dyn.json" 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] && grep -q "dynamic" "$tmp/err" || fail "--dynamic: exit $rc, want 3 with a message"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["dynamic"]; assert d["requested"] and not d["available"] and d["reason"]' \
  "$tmp/dyn.json" || fail "--dynamic: the static report still comes, marked"
exit $status

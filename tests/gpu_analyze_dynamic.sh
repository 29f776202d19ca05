#!/usr/bin/env bash
# `cudaperf analyze --dynamic` end to end on a GPU with Nsight Compute: sgemm's shared_tiled
# kernel must get measured values (launched once, its launch block size and FP32 FLOPs), and the
# naive one coalesced loads of B (bytes per sector reported). Skips (77) without a GPU or ncu.
set -uo pipefail
bin=$1 root=$2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || [ -n "${CUDAPERF_NCU:-}" ] || [ -x /usr/local/cuda/bin/ncu ] || { echo "no ncu: skipped"; exit 77; }
out=$("$bin" analyze "$root/c2cuda/linalg/sgemm_f32/impls/shared_tiled.cu" --task linalg/sgemm_f32 --root "$root" --dynamic --json)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; echo "$out" | tail -20; exit 1; }
python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
d = r["dynamic"]
assert d["available"], d
ks = [k for k in d["metrics"]["kernels"] if k["metrics"]]
assert ks, d
m = ks[0]["metrics"]
assert m["launches"] >= 1 and m["block_size"] == 256, m
assert m["flops_fp32"] and m["flops_fp32"] > 0, m
assert m["sectors_per_request_ld"] is not None and m["theoretical_occupancy_pct"] is not None, m
print("analyze --dynamic: ok", json.dumps(m)[:300])
' <<<"$out"

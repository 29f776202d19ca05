#!/usr/bin/env bash
# The torch worker's build role (python/cudaperf/torch_build.py) with real torch and nvcc:
# a kernel file builds against the cut-down torch/extension.h (python/cudaperf/build_headers); one that
# needs the C++ frontend is built again against the real header and still imports under the name the
# candidate loader uses; one that does not compile reports the full build's errors. Needs torch for
# CUDAPERF_PYTHON (default python3) and nvcc; exits 77 without them.
set -uo pipefail
src=$1 data=$2
py=${CUDAPERF_PYTHON:-python3}
[ -x /tmp/t2c-eng/bin/python ] && [ -z "${CUDAPERF_PYTHON:-}" ] && py=/tmp/t2c-eng/bin/python
"$py" -c "import torch" 2>/dev/null || { echo "torch is not importable by $py: skipping"; exit 77; }
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "no nvcc: skipping"; exit 77; }
export PATH="$PATH:/usr/local/cuda/bin" PYTHONPATH="$src/python" TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
# three builds side by side (each its own cache), as the engine runs them
for c in slim_ok needs_full_header does_not_compile; do
  "$py" -m cudaperf.torch_worker build --candidate "$data/torch_build/$c.py" --cache "$tmp/$c" > "$tmp/$c.json" 2> "$tmp/$c.err" &
done
wait
"$py" - "$tmp" "$data/torch_build" <<'PY' || status=1
import json, os, sys
import torch  # noqa: F401  (the extension links against torch's libraries)
from cudaperf import torch_candidate, torch_static
tmp, cands = sys.argv[1], sys.argv[2]
def built(c):
    ev = [json.loads(l) for l in open(os.path.join(tmp, c + ".json")) if l.startswith("{")]
    return [e for e in ev if e.get("event") == "built"][-1]
def load(c, b):  # through the candidate worker's own loader, with the candidate's load_inline arguments
    path = os.path.join(cands, c + ".py")
    canon = torch_static.check_candidate(open(path).read(), path)["extensions"][0]["canonical"]
    return torch_candidate.CandidateLoader(b["extensions"], b["salt"])(canon["name"], **torch_static.load_inline_kwargs(canon))
ok = True
b = built("slim_ok")
e = b["extensions"][0] if b["extensions"] else {}
if b["status"] != "ok" or e.get("headers") != "slim" or "slim_failed_s" in e or not hasattr(load("slim_ok", b), "twice"):
    print("FAIL slim_ok:", b); ok = False
else:
    print(f"ok   slim_ok: headers slim, {e['seconds']:.1f} s")
b = built("needs_full_header")
e = b["extensions"][0] if b["extensions"] else {}
if b["status"] != "ok" or e.get("headers") != "full" or not e.get("slim_failed_s") or not hasattr(load("needs_full_header", b), "twice"):
    print("FAIL needs_full_header:", b); ok = False
else:
    print(f"ok   needs_full_header: slim try failed after {e['slim_failed_s']:.1f} s, full header {e['seconds']:.1f} s, imports")
b = built("does_not_compile")
if b["status"] != "compile_error" or "error" not in b["message"] or "build_headers" in b["message"]:
    print("FAIL does_not_compile:", b); ok = False
else:
    print("ok   does_not_compile: compile_error from the full build")
sys.exit(0 if ok else 1)
PY
leftover=$(find "$tmp" -path '*torch_ext/tmp-*' | head -3)
[ -z "$leftover" ] || { echo "FAIL: build folders left behind: $leftover"; status=1; }
exit $status

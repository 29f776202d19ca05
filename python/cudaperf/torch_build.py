"""The build role of the torch worker (docs/torch2cuda.md, "Process model"): builds the candidate's
load_inline extensions ahead of the run, their arguments resolved statically (the candidate's Python
never runs here), cached per content hash. The supervisor runs it confined (BuildJail in
src/verify/torch_check.cpp) and installs what it leaves in --out."""
from __future__ import annotations

import argparse
import copy
import io
import os
import re
import shutil
import sys
import time
from typing import Any

from cudaperf import torch_static
from cudaperf.torch_channel import emit, fatal


def toolchain_salt() -> str:
    """Part of every extension's cache key. The supervisor computes the same string (torch_check.cpp,
    torch_probe) to find cached builds without starting this worker: keep the two in step."""
    import torch
    return f"torch {torch.__version__} cuda {torch.version.cuda} python {sys.version_info[:2]}"


BUILD_HEADERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_headers")


def slim_kwargs(kw: dict[str, Any]) -> dict[str, Any] | None:
    """load_inline's arguments with cudaperf's cut-down torch/extension.h first on the include path
    (build_headers/cu for the CUDA file, build_headers/cpp for the C++ file): a cold build takes about
    half the CPU (bench/results/2026-12-01-cpu-torch-build-slim-headers.json). Off with
    CUDAPERF_TORCH_SLIM_HEADERS=0."""
    if os.environ.get("CUDAPERF_TORCH_SLIM_HEADERS", "1") == "0":
        return None
    out = dict(kw)
    out["extra_cflags"] = ["-I" + os.path.join(BUILD_HEADERS, "cpp")] + list(kw.get("extra_cflags") or [])
    out["extra_cuda_cflags"] = ["-I" + os.path.join(BUILD_HEADERS, "cu")] + list(kw.get("extra_cuda_cflags") or [])
    return out


BUILD_RULES = {"build_flags", "precision", "library_call", "include_rule", "python_api", "preprocessor_trick",
               "process_or_file", "inline_asm", "namespace_alias", "native_access"}


def build_role(args: argparse.Namespace) -> int:
    """Builds each load_inline call of the candidate (resolved statically): first against the cut-down
    headers (slim_kwargs), and when that fails, again exactly as load_inline would (its errors are the
    verdict's message). With --out (the supervisor's confined build, docs/torch2cuda.md) each
    extension is left in OUT/<key>/<module>.so and the supervisor installs it into the cache; with
    --cache (tests, bench) it goes into CACHE/torch_ext/<key>/ directly."""
    r = torch_static.check_candidate_file(args.candidate)
    if "syntax_error" in r:
        emit({"event": "built", "status": "compile_error", "message": r["syntax_error"], "extensions": []})
        return 0
    # Defence in depth: the flags and sources reach ninja's shell and the compilers only after the
    # same guards the supervisor ran (it refuses a candidate with findings before it builds).
    refused = [f for f in r["findings"] if f["rule"] in BUILD_RULES]
    if refused:
        emit({"event": "built", "status": "refused", "extensions": [],
              "message": "; ".join(f"rule {f['rule']} (line {f['line']}): {f['message']}" for f in refused[:5])})
        return 0
    exts = []
    for e in r["extensions"]:
        if "unresolved" in e:
            emit({"event": "built", "status": "compile_error", "extensions": [],
                  "message": f"line {e['line']}: load_inline cannot be built ahead of the run: {e['unresolved']} "
                             f"(sources, names and flags must be module-level constants)"})
            return 0
        exts.append(e["canonical"])
    try:
        import torch  # noqa: F401
        from torch.utils import cpp_extension
    except ImportError as ex:  # the supervisor looks for this line (a build user that cannot reach torch)
        print(f"cudaperf: torch is not importable: {ex}", file=sys.stderr, flush=True)
        fatal(f"torch is not importable by the build worker: {ex}")
    salt = toolchain_salt()
    root = args.out or os.path.join(args.cache, "torch_ext")
    os.makedirs(root, exist_ok=True)
    report = []
    for c in exts:
        key = torch_static.extension_key(c, salt)
        name = torch_static.ext_module_name(c, key)
        final = os.path.join(root, key)
        so = os.path.join(final, name + ".so")
        t0 = time.monotonic()
        if os.path.isfile(so):
            report.append({"name": c["name"], "key": key, "so": so, "cached": True, "seconds": time.monotonic() - t0})
            continue
        # this worker's own build folder (with --out, the whole folder is this build's already)
        work = os.path.join(root, f"tmp-{key[:16]}" if args.out else f"tmp-{os.getpid()}-{key[:16]}")
        kw = torch_static.load_inline_kwargs(c)
        slim = slim_kwargs(kw)
        headers, slim_failed_s = "full", None
        for attempt in ([slim] if slim else []) + [kw]:
            shutil.rmtree(work, ignore_errors=True)  # nothing of a failed try is reused
            os.makedirs(work, exist_ok=True)
            t_try = time.monotonic()
            out = io.StringIO()
            try:
                saved = sys.stdout, sys.stderr
                sys.stdout = sys.stderr = out
                try:
                    # a copy: load_inline edits its source lists in place (header, module definition)
                    m = cpp_extension.load_inline(name=name, build_directory=work, verbose=False,
                                                  **copy.deepcopy(attempt))
                finally:
                    sys.stdout, sys.stderr = saved
                headers = "slim" if attempt is slim else "full"
                break
            except Exception as ex:  # the full build's diagnostics are the verdict's message
                if attempt is slim:
                    slim_failed_s = time.monotonic() - t_try
                    # load_inline remembers a name's flags and would build the next try as
                    # <name>_v1 (another PyInit symbol than the loader looks for): forget the try
                    entries = getattr(getattr(cpp_extension, "JIT_EXTENSION_VERSIONER", None), "entries", None)
                    if isinstance(entries, dict):
                        entries.pop(name, None)
                    continue
                shutil.rmtree(work, ignore_errors=True)
                msg = str(ex) + "\n" + out.getvalue()
                lines = [ln for ln in msg.splitlines() if re.search(r"error|Error|undefined", ln)]
                emit({"event": "built", "status": "compile_error", "extensions": report,
                      "message": "\n".join((lines or msg.splitlines())[:40])[:6000]})
                return 0
        built = getattr(m, "__file__", None) or os.path.join(work, name + ".so")
        if os.path.basename(built) != name + ".so":
            os.replace(built, os.path.join(work, name + ".so"))
        for entry in os.listdir(work):  # the cache keeps the extension, not its objects (~3x the size)
            if entry != name + ".so":
                path = os.path.join(work, entry)
                shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)
        try:
            os.replace(work, final)  # atomic: another worker may have finished the same key first
        except OSError:
            pass
        if not os.path.isfile(so):
            so = os.path.join(work, name + ".so")
        report.append({"name": c["name"], "key": key, "so": so, "cached": False, "seconds": time.monotonic() - t0,
                       "headers": headers, **({"slim_failed_s": slim_failed_s} if slim_failed_s is not None else {})})
    emit({"event": "built", "status": "ok", "extensions": report, "salt": salt})
    return 0


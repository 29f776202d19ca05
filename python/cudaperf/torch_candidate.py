"""The candidate role of the torch worker (docs/torch2cuda.md, "Process model"): UNTRUSTED, the
candidate's code runs in this process. Loads ModelNew (its extensions from the cache: no builds, no
processes) after the lock-down (seccomp) and only launches it (torch_launch.Launcher): copies the
reference weights in (state_dict, strict), runs each call on the reference's shared inputs and
copies its outputs into the shared outputs. The reference measures, compares and times; nothing
trusted (the secret seed, the expected outputs, the timing) is in this process."""
from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import time
from types import ModuleType, SimpleNamespace
from typing import Any

from cudaperf import torch_static
from cudaperf.torch_channel import emit, fatal
from cudaperf.torch_outputs import OutputMismatch, OutputTypeError, flatten_outputs, materialize
from cudaperf.torch_problem import load_module, set_seed
from cudaperf.torch_profile import judge_profile, profile_call
from cudaperf.torch_timer import sync


class CandidateLoader:
    """Replaces torch.utils.cpp_extension.load_inline while the candidate module loads: the
    extension must already be in the cache (the build step made it); it is imported from there
    without ninja, nvcc or any file write."""

    def __init__(self, manifest: list[dict[str, Any]], salt: str) -> None:
        self.by_key = {e["key"]: e for e in manifest}
        self.salt = salt
        self.sources: list[str] = []
        self.loaded: list[str] = []

    def __call__(self, name: str, cpp_sources: Any, cuda_sources: Any = None, *rest: Any, **kw: Any) -> ModuleType:
        import importlib.machinery
        import importlib.util
        args = dict(kw)
        args.update(name=name, cpp_sources=cpp_sources, cuda_sources=cuda_sources)
        for k in list(args):
            if k in torch_static.IGNORED_KEYS:
                args.pop(k)
        canon = torch_static.canonical_extension(args)
        key = torch_static.extension_key(canon, self.salt)
        e = self.by_key.get(key)
        if e is None:
            raise RuntimeError(f"load_inline('{name}'): this extension was not built before the run (its "
                               f"arguments must be the module-level constants the build step saw)")
        modname = torch_static.ext_module_name(canon, key)
        loader = importlib.machinery.ExtensionFileLoader(modname, e["so"])
        spec = importlib.util.spec_from_file_location(modname, e["so"], loader=loader)
        m = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]  # a spec: its loader is given
        loader.exec_module(m)
        self.sources += canon["cuda_sources"]
        self.loaded.append(modname)
        return m


def lock_down(lib_path: str) -> str:
    """The seccomp filter of src/sandbox/confine.cpp, through libcudaperf_confine.so: no sockets,
    exec, fork, ptrace, signals to others; writable opens fail. '' on success, else why not."""
    if not lib_path:
        return "no confinement library"
    import ctypes  # harness code; candidates may not import ctypes
    try:
        lib = ctypes.CDLL(lib_path)
        buf = ctypes.create_string_buffer(512)
        rc = lib.cudaperf_lock_down(buf, 512)
        return "" if rc == 0 else buf.value.decode(errors="replace")
    except OSError as ex:
        return str(ex)



class Watchdog:
    """A call that does not return within the limit ends the process with SIGALRM (default
    action), which the supervisor reports as a timeout of that config."""

    def __init__(self, seconds: float) -> None:
        self.seconds = max(1, int(math.ceil(seconds)))

    def __enter__(self) -> None:
        signal.alarm(self.seconds)

    def __exit__(self, *exc: object) -> None:
        signal.alarm(0)



def candidate_role(args: argparse.Namespace) -> int:
    """Untrusted: launches only (torch_launch.Launcher). The reference measures, compares and times."""
    import torch

    from cudaperf import torch_launch
    first = "go"
    if args.wait_for_go:
        # Started ahead (while the reference draws its inputs or other candidates run): the imports
        # happen now; the plan and the GPU are touched only after the supervisor's "init" or "go"
        # (it sends "init" only while no candidate is being measured). "init": the set-up below (CUDA
        # context, profiler, the FIFOs and shared buffers of the reference), "initialized", then wait
        # for "go"; "go" alone: set-up and run. The candidate is read only after "go" and the lock-down.
        import torch.profiler  # noqa: F401
        import torch.utils.cpp_extension  # noqa: F401
        first = sys.stdin.readline().strip()
        if first not in ("init", "go"):
            return 0
    t_init = time.monotonic()
    # this worker's own account of its time (diagnostics only: the candidate runs in here)
    stages: dict[str, float] = {}
    plan = json.load(open(args.plan, encoding="utf-8"))
    device = plan["device"]
    test_mode = bool(plan.get("test_mode")) and os.environ.get("CUDAPERF_TORCH_TEST_MODE") == "1"
    manifest: dict[str, Any] = (json.load(open(args.manifest, encoding="utf-8")) if args.manifest
                                else {"extensions": [], "salt": ""})
    if device == "cuda":
        torch.cuda.init()
        torch.empty(1, device="cuda")
    if not test_mode:  # initialise the profiler before the filter goes in
        profile_call(torch, lambda: torch.ones(8, device=device) + 1, device)
    launcher = torch_launch.Launcher(launcher_helpers(), torch, plan, device)  # FIFOs, IPC handles, events
    from torch.utils import cpp_extension
    loader = CandidateLoader(manifest.get("extensions", []), manifest.get("salt", ""))
    cpp_extension.load_inline = loader
    stages["setup_s"] = time.monotonic() - t_init
    if first == "init":
        emit({"event": "initialized", "s": stages["setup_s"]})
        if sys.stdin.readline().strip() != "go":
            return 0
    t_go = time.monotonic()
    sandbox = "off (test mode)" if test_mode else lock_down(plan.get("confine_lib", ""))
    emit({"event": "sandbox", "status": sandbox or "seccomp"})
    if sandbox and not test_mode and not plan.get("allow_unconfined"):
        fatal(f"cannot confine the candidate worker: {sandbox}")
    os.environ.pop("CUDAPERF_TORCH_TEST_MODE", None)
    torch.set_grad_enabled(False)
    first = launcher.null_calls()  # the handshake timed before any candidate code runs
    try:
        cand = load_module(args.candidate, "cudaperf_candidate")
        model_new = cand.ModelNew
    except Exception as ex:
        msg = f"the candidate module does not load: {type(ex).__name__}: {str(ex)[:1500]}"

        def model_new(*_a: Any, **_k: Any) -> Any:  # every "model" command answers with the load failure
            raise RuntimeError(msg)
    stages["load_s"] = time.monotonic() - t_go
    launcher.serve(first, model_new, loader.sources, not test_mode, test_mode)
    if launcher.materialized:
        stages["outputs_materialized"] = launcher.materialized
    emit({"event": "done", "stages": stages})
    return 0



def launcher_helpers() -> SimpleNamespace:
    """What torch_launch.Launcher calls back into (its `w`)."""
    return SimpleNamespace(torch_static=torch_static, set_seed=set_seed, Watchdog=Watchdog, profile_call=profile_call,
                           flatten_outputs=flatten_outputs, materialize=materialize, OutputMismatch=OutputMismatch,
                           OutputTypeError=OutputTypeError, sync=sync, judge_profile=judge_profile)

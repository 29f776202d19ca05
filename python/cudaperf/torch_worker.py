"""The PyTorch worker of torch2cuda tasks (docs/torch2cuda.md). The C++ supervisor
(src/verify/torch_check.cpp) starts it in three roles, each in its own process:

  build      builds the candidate's load_inline extensions ahead of the run (arguments resolved
             statically; the candidate's Python never runs here), cached per content hash
  reference  trusted: loads reference.py, draws inputs from the secret seed (read from stdin),
             computes expected outputs and keeps them; after the candidate ran, compares its
             outputs and times the eager and torch.compile baselines
  candidate  untrusted: loads ModelNew (extensions from the cache, no builds, no processes),
             copies the reference weights in (state_dict, strict), runs every config, times the
             perf configs (L2 flush, two alternating input sets, every timed output checked on the
             device against its verified warm-up output) and writes its outputs for the reference

Results travel as JSON lines on the result channel (fd given by --channel-fd); tensors as framed
torch.save records in files of the exchange folder. torch is imported lazily (this module is
importable without it).

This module is the entry point (`python -m cudaperf.torch_worker ROLE ...`): the arguments, the
spare (started ahead, becomes a reference) and the role's module, imported only in the process of
that role: torch_build, torch_reference, torch_candidate, torch_baselines (the warm role).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
import traceback
from typing import Any, NoReturn

from cudaperf import torch_channel
from cudaperf.torch_channel import emit

T_START = time.monotonic()  # the worker's start (its torch import is part of every stage breakdown)

# Names that tests, bench/ and torch_import take from this module, and the role modules they moved to:
# looked up on first use (__getattr__), so that importing the entry point loads no role's code.
MOVED = {
    "BUILD_HEADERS": "torch_build",
    "CandidateLoader": "torch_candidate",
    "read_frames": "torch_frames", "write_frame": "torch_frames",
    "NETWORK_TRIES": "torch_network", "refuse_network": "torch_network",
    "compare": "torch_outputs", "flatten_outputs": "torch_outputs",
    "draw_inputs": "torch_problem", "fp32_strict": "torch_problem", "load_module": "torch_problem",
}


def __getattr__(name: str) -> Any:
    if name in MOVED:
        return getattr(importlib.import_module("cudaperf." + MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def not_dumpable() -> None:
    """The reference keeps the expected outputs in its memory, and a candidate worker waiting for "go"
    holds its open output file: neither may be read through /proc/<pid>/mem or /proc/<pid>/fd by a
    confined candidate (which has also lost its capabilities: sandbox::lock_down)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
    except (OSError, AttributeError):
        pass


def main(argv: list[str] | None = None, t_start: float = T_START, from_spare: bool = False) -> int:
    """The role of argv: its exit code. t_start: when the role began (its stage times count from
    there); from_spare: a spare's role (torch imported before the role came)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("role", choices=["build", "reference", "candidate", "warm", "spare"])
    p.add_argument("--plan")
    p.add_argument("--candidate")
    p.add_argument("--manifest")
    p.add_argument("--cache")
    p.add_argument("--out", help="build: leave each extension in OUT/<key>/ (the supervisor installs it)")
    p.add_argument("--channel-fd", type=int, default=1)
    p.add_argument("--wait-for-go", action="store_true", help="candidate: import, then wait for 'go' on stdin")
    args = p.parse_args(argv)
    if args.role in ("reference", "candidate", "spare"):
        not_dumpable()
    if args.role == "spare":
        # Started ahead of a run by the supervisor: torch imported now; the role and its arguments
        # come as the first line on stdin ({"argv": ["reference", ...]}).
        import torch  # noqa: F401

        import cudaperf.torch_reference  # noqa: F401 - the role's modules too, ahead of the role
        line = sys.stdin.readline()
        if not line:
            return 0
        try:
            real = json.loads(line)["argv"]
        except (ValueError, KeyError, TypeError):
            return 2
        if not isinstance(real, list) or not real or real[0] != "reference" or \
                not all(isinstance(a, str) for a in real):
            return 2  # a spare only ever becomes a (trusted) reference
        # the role starts now: its stage times leave out the wait
        return main(real, t_start=time.monotonic(), from_spare=True)
    torch_channel.open_channel(args.channel_fd)
    try:
        # Each role's module is imported here, in its own process: a candidate's process never loads
        # the reference's code (nor the build's).
        if args.role == "build":
            from cudaperf.torch_build import build_role
            return build_role(args)
        if args.role == "reference":
            from cudaperf.torch_reference import reference_role
            return reference_role(args, t_start, from_spare)
        if args.role == "warm":
            from cudaperf.torch_baselines import warm_role
            return warm_role(args)
        from cudaperf.torch_candidate import candidate_role
        return candidate_role(args)
    except SystemExit:
        raise
    except BaseException as ex:  # a worker's own failure is reported, never raised across the boundary
        emit({"event": "fatal", "message": f"{type(ex).__name__}: {ex}",
              "trace": traceback.format_exc()[-2000:]})
        return 2


def exit_now(rc: object) -> NoReturn:
    """Ends a worker without Python's teardown: everything it reports is on the channel and in files it
    closed. A torch process's orderly exit (CUDA context, profiler, Inductor's compile pool, GBs of
    tensors) took seconds per worker on the H200."""
    for f in (torch_channel.CHANNEL, sys.stdout, sys.stderr):
        try:
            if f is not None:
                f.flush()
        except (OSError, ValueError):
            pass
    os._exit(rc if isinstance(rc, int) else 1)


if __name__ == "__main__":
    try:
        code = main()
    except SystemExit as ex:  # argparse and fatal(): their codes
        code = ex.code if isinstance(ex.code, int) else (0 if ex.code is None else 1)
    exit_now(code)

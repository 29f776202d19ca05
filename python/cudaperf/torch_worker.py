"""The PyTorch worker of torch2cuda tasks (docs/torch2cuda.md, "Process model"). The C++ supervisor
(src/torch2cuda/) starts it in one role per process:

  build      builds the candidate's load_inline extensions ahead of the run (arguments resolved
             statically; the candidate's Python never runs here), confined, into a folder the
             supervisor installs into the cache per content hash
  reference  trusted: loads reference.py, draws inputs from the secret seed (read from stdin), keeps
             the expected outputs; owns every buffer the candidate sees (CUDA IPC) and measures each
             candidate through them: fresh inputs per call, its own events, a secret sample of timed
             outputs checked (torch_measure.py); then times the eager and torch.compile baselines
  candidate  untrusted: loads ModelNew (extensions from the cache, no builds, no processes), locks
             itself down and only launches, per command from the reference (torch_launch.py)
  warm       torch.compile of the reference once per perf config, nothing timed (Inductor's cache)
  spare      imports torch ahead, then becomes the next run's reference

Control messages travel as JSON lines on the result channel (fd given by --channel-fd); tensors stay
in the reference's buffers. torch is imported lazily (this module is importable without it).

This module is the entry point (`python -m cudaperf.torch_worker ROLE ...`): the arguments, the
spare (started ahead, becomes a reference) and the role's module, imported only in the process of
that role: torch_build, torch_reference, torch_candidate, torch_baselines (the warm role).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from typing import NoReturn

from cudaperf import torch_channel
from cudaperf.torch_channel import emit

T_START = time.monotonic()  # the worker's start (its torch import is part of every stage breakdown)



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

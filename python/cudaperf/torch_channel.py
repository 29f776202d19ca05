"""The result channel of a torch worker: one JSON object per line to the supervisor, on the fd the
supervisor gave (--channel-fd; stdout by default). The entry point (torch_worker.main) opens it; every
role reports through emit() and fatal(). The protocol's names (roles, events, commands) are
config/torch_protocol.toml's, which the C++ supervisor compiles in (src/torch2cuda/protocol.cpp)."""
from __future__ import annotations

import json
import os
import sys
from typing import Any, NoReturn, TextIO

from cudaperf import rule_files

_FILE = "torch_protocol.toml"
_PROTOCOL = rule_files.load(_FILE)
ROLES = tuple(rule_files.strings(_PROTOCOL, "roles", _FILE))
EVENTS = frozenset(rule_files.strings(_PROTOCOL, "events.all", _FILE))  # every harness message
CANDIDATE_EVENTS = frozenset(rule_files.strings(_PROTOCOL, "events.candidate", _FILE))  # a candidate worker's
CANDIDATE_STDIN = tuple(rule_files.strings(_PROTOCOL, "commands.candidate_stdin", _FILE))
REFERENCE_STDIN = tuple(rule_files.strings(_PROTOCOL, "commands.reference_stdin", _FILE))
LAUNCHER_COMMANDS = tuple(rule_files.strings(_PROTOCOL, "commands.launcher", _FILE))
if not CANDIDATE_EVENTS <= EVENTS:
    raise rule_files.RuleFileError(f"config/{_FILE}: events.candidate is not a part of events.all")

CHANNEL: TextIO | None = None


def open_channel(fd: int) -> None:
    """The channel on fd (1: this process's stdout); a child process does not inherit it."""
    global CHANNEL
    CHANNEL = os.fdopen(fd, "w", buffering=1) if fd != 1 else sys.stdout
    if fd != 1:
        os.set_inheritable(fd, False)


def emit(obj: dict[str, Any]) -> None:
    """One message; its event must be one of the protocol's (the supervisor drops any other line)."""
    if obj.get("event") not in EVENTS:
        raise ValueError(f"not an event of the worker protocol (config/{_FILE}): {obj.get('event')!r}")
    line = json.dumps(obj, default=str)
    if CHANNEL is not None:
        CHANNEL.write(line + "\n")
        CHANNEL.flush()


def fatal(msg: str) -> NoReturn:
    emit({"event": "fatal", "message": msg})
    sys.exit(2)

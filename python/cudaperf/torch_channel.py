"""The result channel of a torch worker: one JSON object per line to the supervisor, on the fd the
supervisor gave (--channel-fd; stdout by default). The entry point (torch_worker.main) opens it; every
role reports through emit() and fatal()."""
from __future__ import annotations

import json
import os
import sys
from typing import Any, NoReturn, TextIO

CHANNEL: TextIO | None = None


def open_channel(fd: int) -> None:
    """The channel on fd (1: this process's stdout); a child process does not inherit it."""
    global CHANNEL
    CHANNEL = os.fdopen(fd, "w", buffering=1) if fd != 1 else sys.stdout
    if fd != 1:
        os.set_inheritable(fd, False)


def emit(obj: dict[str, Any]) -> None:
    line = json.dumps(obj, default=str)
    if CHANNEL is not None:
        CHANNEL.write(line + "\n")
        CHANNEL.flush()


def fatal(msg: str) -> NoReturn:
    emit({"event": "fatal", "message": msg})
    sys.exit(2)

"""No network for a problem's code: the reference worker, and the tools that import problem files
outside a run (torch_import, bench/), refuse its connections and remember what it tried
(NETWORK_TRIES), so that a failure can say it needed the network."""
from __future__ import annotations

from typing import Any, NoReturn


class NetworkRefused(OSError):
    pass


NETWORK_TRIES: list[str] = []


def refuse_network() -> None:
    """The reference runs without a network (its own namespace where permitted): a connection it tries
    is refused here with a message that names it, and remembered (a download at import time)."""
    import socket

    def refused(*a: Any, **_k: Any) -> NoReturn:
        NETWORK_TRIES.append(str(a[1] if len(a) > 1 else a[0] if a else "?")[:120])
        raise NetworkRefused("cudaperf: the reference may not use the network")
    socket.socket.connect = lambda self, addr: refused(self, addr)  # type: ignore[method-assign]
    socket.socket.connect_ex = lambda self, addr: refused(self, addr)  # type: ignore[method-assign]
    socket.create_connection = lambda addr, *a, **k: refused(None, addr)
    socket.getaddrinfo = lambda host, *a, **k: refused(None, host)

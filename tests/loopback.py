"""Loopback helpers shared by the test scripts that start `cudaperf serve` (imported from tests/)."""
import socket


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p

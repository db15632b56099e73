"""Ports for the servers a test or benchmark starts.

A port found by binding to port 0 comes from the kernel's ephemeral range, the same range every
outgoing connection (to PostgreSQL, RabbitMQ, Redis) draws its local port from. Between closing the
probe and the server binding, such a connection can take it: the server dies with "Address already
in use". So the ports handed out here lie below the ephemeral range, where the kernel never assigns
a local port by itself, and each is handed out once per process.
"""

from __future__ import annotations

import random
import socket
import threading
from pathlib import Path

_LOW, _HIGH = 20000, 32000  # under the usual ephemeral start (32768)
_given: set[int] = set()
_lock = threading.Lock()


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on, outside the ephemeral range."""
    eph_low, eph_high = _ephemeral_range()
    candidates = [p for p in range(_LOW, _HIGH) if not eph_low <= p <= eph_high]
    rng = random.Random()
    with _lock:
        for _ in range(500):
            port = rng.choice(candidates)
            if port not in _given and _bindable(port):
                _given.add(port)
                return port
    # every candidate taken: fall back on the kernel's choice
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])

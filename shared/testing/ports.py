"""Ports for the servers a test or benchmark starts.

A port found by binding to port 0 comes from the kernel's ephemeral range, the same range every
outgoing connection (to PostgreSQL, RabbitMQ, Redis) draws its local port from. Between closing the
probe and the server binding, such a connection can take it: the server dies with "Address already
in use". So the ports handed out here lie below the ephemeral range, where the kernel never assigns
a local port by itself, and each is handed out once per process. Under pytest-xdist each worker draws
from its own share of them, so two workers never pick the same port at the same moment.
"""

from __future__ import annotations

import os
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


def _this_workers_share(ports: list[int]) -> list[int]:
    """Every n-th port for the n workers of a pytest-xdist run (``gw0``, ``gw1``, ...), all of them otherwise."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    if count > 1 and worker.startswith("gw") and worker[2:].isdigit():
        return ports[int(worker[2:]) % count :: count]
    return ports


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
    candidates = _this_workers_share([p for p in range(_LOW, _HIGH) if not eph_low <= p <= eph_high])
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

"""How many gunicorn workers a web process runs, and how many database connections each opens, from
the CPU and memory it may use (``deploy/gunicorn.conf.py`` applies it; docs/operations.md, "Sizing",
has the measurements and the arithmetic).

A gevent worker runs on one core at most, so one worker per core; and no more workers than the memory
holds, each worker being a whole copy of the app (gunicorn does not preload it)."""

from __future__ import annotations

import math
import os
from pathlib import Path

# Resident memory measured on the e2e stack after the benchmark's 80 tournaments (docs/operations.md):
WORKER_MIB = 180  # a worker, the largest service's (pairing: SciPy and the graph libraries), rounded up
MASTER_MIB = 40  # gunicorn's master, which does not load the app
HEADROOM_MIB = 64  # a large page or TRF being built, the allocator's slack

# Database connections per worker: a request holds its connection for about a third of its CPU time,
# so 2-3 connections keep a worker's one core busy; the overflow covers slow statements. A pod opens at
# most workers × (POOL_SIZE + MAX_OVERFLOW).
POOL_SIZE = 4
MAX_OVERFLOW = 4


def workers_for(cores: float, memory_mib: float | None) -> int:
    """One worker per core (rounded up), no more than the memory holds, at least one."""
    by_cpu = math.ceil(cores)
    if memory_mib is None:
        return max(1, by_cpu)
    by_memory = math.floor((memory_mib - MASTER_MIB - HEADROOM_MIB) / WORKER_MIB)
    return max(1, min(by_cpu, by_memory))


def memory_needed_mib(workers: int) -> int:
    """The memory limit ``workers`` workers need."""
    return MASTER_MIB + HEADROOM_MIB + workers * WORKER_MIB


def cpu_limit(environ: dict[str, str] | None = None, cgroup: Path = Path("/sys/fs/cgroup")) -> float:
    """The cores this process may use: the pod's CPU limit (``ARBITER_CPU_LIMIT_MILLICORES``, from the
    downward API), the cgroup's quota, or the machine's cores."""
    environ = dict(os.environ) if environ is None else environ
    millicores = environ.get("ARBITER_CPU_LIMIT_MILLICORES")
    if millicores:
        return int(millicores) / 1000
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()
        if quota != "max":
            return int(quota) / int(period)
    except (OSError, ValueError):
        pass
    return float(os.cpu_count() or 1)


def memory_limit_mib(
    environ: dict[str, str] | None = None, cgroup: Path = Path("/sys/fs/cgroup")
) -> float | None:
    """The memory this process may use: the pod's limit (``ARBITER_MEMORY_LIMIT_MIB``, from the downward
    API), the cgroup's, or None (no bound)."""
    environ = dict(os.environ) if environ is None else environ
    mib = environ.get("ARBITER_MEMORY_LIMIT_MIB")
    if mib:
        return float(mib)
    try:
        limit = (cgroup / "memory.max").read_text().strip()
        if limit != "max":
            return int(limit) / 2**20
    except (OSError, ValueError):
        pass
    return None

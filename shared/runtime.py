"""Process plumbing shared by every service's long-running entrypoints (consumer, relay, workers):
logging, and a stop event set by SIGTERM/SIGINT so a process finishes its current message first."""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Any


def configure_logging(level: str = "INFO") -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s",
    )
    logging.getLogger("pika").setLevel(logging.WARNING)


def run_until_signalled(name: str, loop: Callable[[threading.Event], None], *, level: str = "INFO") -> int:
    configure_logging(level)
    stop = threading.Event()

    def _stop(signum: int, _frame: FrameType | None) -> None:
        logging.getLogger(name).info("received signal %d, stopping", signum)
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    logging.getLogger(name).info("%s started", name)
    loop(stop)
    logging.getLogger(name).info("%s stopped", name)
    return 0


def every(seconds: float, tick: Callable[[], object], stop: threading.Event, *, name: str) -> None:
    """Call ``tick`` every ``seconds`` until stopped; an error is logged and the loop goes on."""
    log = logging.getLogger(name)
    while not stop.is_set():
        try:
            tick()
        except Exception:
            log.exception("%s tick failed", name)
        stop.wait(seconds)


def service_main(
    service: str,
    argv: list[str],
    bootstrap: Callable[[], Any],
    processes: Mapping[str, Callable[[Any, threading.Event], None]],
) -> int:
    """``python -m services.<service> migrate|<process>``: migrate the database, or run one of the
    service's long-running processes until SIGTERM."""
    from shared.database import upgrade

    commands = ("migrate", *processes)
    if len(argv) != 1 or argv[0] not in commands:
        print(f"usage: python -m services.{service} {'|'.join(commands)}", file=sys.stderr)
        return 2
    svc = bootstrap()
    level = svc.settings.log_level
    if argv[0] == "migrate":
        configure_logging(level)
        upgrade(svc.migrations, svc.engine)
        return 0
    run = processes[argv[0]]
    return run_until_signalled(f"{service}-{argv[0]}", lambda stop: run(svc, stop), level=level)

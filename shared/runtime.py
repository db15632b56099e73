"""Process plumbing shared by every service's long-running entrypoints (consumer, relay, workers):
logging, and a stop event set by SIGTERM/SIGINT so a process finishes its current message first."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType


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

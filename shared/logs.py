"""Logging for every process: one JSON object per line on stderr (``python-json-logger``), or text for
a person at a terminal (``ARBITER_LOG_FORMAT=text``).

Each line names the process (``service``: registration, pairing, clocks, standings; ``process``: web,
consumer, relay, worker, ticker, scheduler, migrate; ``pid``) and what it was working on: the
``correlation_id`` of the request or message (:mod:`shared.correlation`), the event being handled
(``causation_id``, ``event_type``, ``queue``), its ``tournament_id`` and ``game_id``. So one action is
followed across every process with one grep::

    {"time": "2026-12-01T11:02:03.456Z", "level": "INFO", "service": "standings", "process": "consumer",
     "logger": "shared.messaging.delivery", "message": "game.finished 5f0c… on standings.game_finished: done in 3.1 ms",
     "pid": 4242, "correlation_id": "4bf92f3577b34da6a3ce929d0e0e4736", "causation_id": "5f0c…", …}

Worker processes call :func:`configure`; gunicorn takes :func:`dict_config` (``deploy/gunicorn.conf.py``),
so its own lines (``gunicorn.error``, the access log) are JSON too.
"""

from __future__ import annotations

import datetime as dt
import logging
import logging.config
from typing import Any, Literal

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

from shared import correlation

LogFormat = Literal["json", "text"]
FIRST = ("time", "level", "service", "process", "logger", "message")

_identity = {"service": "", "process": ""}


def identify(service: str, process: str) -> None:
    """Name this process in every line it logs (set once, by its entrypoint)."""
    _identity.update(service=service, process=process)


class ContextFilter(logging.Filter):
    """Puts the process's name and the current correlation context on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.service = _identity["service"]
        record.arbiter_process = _identity["process"]
        context = correlation.current()
        if context is not None:
            for key, value in context.log_fields().items():
                setattr(record, key, value)
        return True


class JsonFormatter(_JsonFormatter):
    """python-json-logger's formatter with Arbiter's field names and order (:data:`FIRST` first)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(
            ["levelname", "name", "message", "process"],
            rename_fields={
                "levelname": "level",
                "name": "logger",
                "process": "pid",
                "arbiter_process": "process",
                "exc_info": "exception",
            },
            json_ensure_ascii=False,
        )

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        log_data["time"] = (
            dt.datetime.fromtimestamp(record.created, dt.UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z")
        )
        super().add_fields(log_data, record, message_dict)

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        first = {key: log_data.pop(key) for key in FIRST if key in log_data}
        return {**first, **log_data}


class TextFormatter(logging.Formatter):
    """The classic one-line format, with the context's fields at the end."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        context = correlation.current()
        if context is None:
            return text
        fields = " ".join(f"{k}={v}" for k, v in context.log_fields().items())
        return f"{text} [{fields}]"


def dict_config(level: str = "INFO", fmt: LogFormat = "json", *, gunicorn: bool = False) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of a process: the root logger on stderr, pika's chatter
    (INFO) left out; with ``gunicorn``, its error and access logs through the same handler."""
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "shared.logs.ContextFilter"}},
        "formatters": {
            "arbiter": {"()": f"shared.logs.{'JsonFormatter' if fmt == 'json' else 'TextFormatter'}"}
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "arbiter",
                "filters": ["context"],
            }
        },
        "root": {"level": level.upper(), "handlers": ["stderr"]},
        "loggers": {"pika": {"level": "WARNING"}},
    }
    if gunicorn:
        for name in ("gunicorn.error", "gunicorn.access"):
            config["loggers"][name] = {"level": level.upper(), "handlers": ["stderr"], "propagate": False}
    return config


def configure(service: str, process: str, level: str = "INFO", fmt: LogFormat = "json") -> None:
    identify(service, process)
    logging.config.dictConfig(dict_config(level, fmt))

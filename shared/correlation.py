"""Correlation ids: one id follows a user's action through every process it touches.

The id is born at the HTTP request (or taken from a valid ``X-Request-ID``), returned in the
response's ``X-Request-ID``, stored with every outbox row the request writes and carried in the
envelope of every event (``correlation_id``). A consumer handling a message works in that message's
context: its log lines carry the id, and the events its handler writes carry it on, with
``causation_id`` the id of the event that caused them. An event written outside any context (an
older producer, say) starts its own chain: its own id is its correlation id.

The context is a :class:`contextvars.ContextVar`: each thread, and each greenlet of a gevent worker,
has its own. The JSON log formatter (:mod:`shared.logs`) reads it, and :func:`shared.events.wrap`
stamps every new envelope with it. This module sits below the events (it knows an envelope only by the
fields it reads, :class:`Traced`), so that the envelope can take its rules for an id from here.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

HEADER = "X-Request-ID"
MAX_LENGTH = 128
VALID_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:+/=-]{0,127}$")
"""What an incoming ``X-Request-ID`` may be: 1 to 128 characters, letters, digits and ``._:+/=-``
(UUIDs, hex, base64 and most proxies' ids), starting with a letter or digit. Anything else is
replaced by a fresh id: it would end up in log lines and database rows."""


class Traced(Protocol):
    """What a context takes from a message's envelope (:class:`shared.events.Envelope`)."""

    @property
    def id(self) -> uuid.UUID: ...

    @property
    def type(self) -> str: ...

    @property
    def tournament_id(self) -> uuid.UUID | None: ...

    @property
    def correlation_id(self) -> str | None: ...


@dataclass(frozen=True)
class Context:
    """What a process is working on now; every field lands in each JSON log line written meanwhile."""

    correlation_id: str
    causation_id: str | None = None  # the event being handled
    event_type: str | None = None
    queue: str | None = None
    tournament_id: str | None = None
    game_id: str | None = None

    def log_fields(self) -> dict[str, str]:
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}


_current: contextvars.ContextVar[Context | None] = contextvars.ContextVar("arbiter_context", default=None)


def current() -> Context | None:
    return _current.get()


def new_id() -> str:
    return uuid.uuid4().hex


def accepted(candidate: str | None) -> str | None:
    """The incoming id when it is acceptable, else None."""
    if candidate and VALID_ID.fullmatch(candidate):
        return candidate
    return None


@contextlib.contextmanager
def bound(context: Context) -> Iterator[Context]:
    """Work in ``context`` for the duration of the block."""
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)


def enter(context: Context) -> contextvars.Token[Context | None]:
    """Like :func:`bound`, for callers that cannot use a ``with`` block; undo with :func:`leave`."""
    return _current.set(context)


def leave(token: contextvars.Token[Context | None]) -> None:
    _current.reset(token)


def refine(**changes: object) -> None:
    """Add to the current context (the tournament and game of an HTTP request once it is routed)."""
    context = _current.get()
    if context is not None:
        values: dict[str, Any] = {k: None if v is None else str(v) for k, v in changes.items()}
        _current.set(replace(context, **values))


def for_message(envelope: Traced, event: object | None = None, queue: str | None = None) -> Context:
    """The context of a consumer handling ``envelope``: its correlation id (or, from a producer that
    sent none, its own id), the envelope itself as the cause, and what it is about."""
    game = getattr(event, "game_id", None)
    return Context(
        correlation_id=envelope.correlation_id or str(envelope.id),
        causation_id=str(envelope.id),
        event_type=envelope.type,
        queue=queue,
        tournament_id=None if envelope.tournament_id is None else str(envelope.tournament_id),
        game_id=None if game is None else str(game),
    )


def stamp() -> Mapping[str, Any]:
    """The envelope fields a new event takes from the current context: {} outside any context."""
    context = _current.get()
    if context is None:
        return {}
    return {
        "correlation_id": context.correlation_id,
        "causation_id": None if context.causation_id is None else uuid.UUID(context.causation_id),
    }

"""The envelope every message travels in, its routing and the registry of event types.

Every message on the bus is an :class:`Envelope` whose ``type`` is the routing key (past tense,
``game.finished``) and whose ``payload`` validates against the :class:`Event` model registered for
``(type, version)`` (:func:`register`). A type only some queues want goes under qualified routing keys
(:data:`QUALIFIERS`, :func:`bindings`). The producers' models live beside this module, one module per
producer; importing :mod:`shared.events` registers them all.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from shared import correlation
from shared.vocabulary import Ruleset

EXCHANGE = "arbiter.events"
DEAD_LETTER_EXCHANGE = "arbiter.dead"


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Event(BaseModel):
    """Base of every event payload. Subclasses set ``TYPE`` (routing key) and ``VERSION``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    INTERNAL: ClassVar[bool] = False
    """Internal to its service (it travels over the broker only between that service's own processes):
    left out of the published schema."""


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: uuid.UUID = Field(default_factory=uuid.uuid4, description="idempotency key")
    type: str
    version: int = 1
    occurred_at: dt.datetime = Field(default_factory=utcnow)
    tournament_id: uuid.UUID | None = None
    payload: dict[str, Any]
    correlation_id: str | None = Field(
        None,
        max_length=correlation.MAX_LENGTH,
        pattern=correlation.VALID_ID.pattern,
        description="the id of the request (or root event) this event follows from (shared.correlation)",
    )
    causation_id: uuid.UUID | None = Field(
        None, description="the id of the event whose handler wrote this one"
    )

    _qualifier: str | None = PrivateAttr(None)

    @property
    def routing_key(self) -> str:
        """The key it is published with: its type, or ``<type>.<qualifier>`` for a message only some
        of the queues of its type want (:data:`QUALIFIERS`). Not part of the body."""
        return self.type if self._qualifier is None else f"{self.type}.{self._qualifier}"

    def qualified(self, *qualifiers: str | None) -> Envelope:
        """This envelope, published under ``<type>.<qualifier>…`` (none, or only None: its type). A type
        may have several kinds of qualifier (:data:`QUALIFIERS`), each at its place in the key: at most
        one of each kind, in their order (``game.finished.platform.decided``)."""
        given = [q for q in qualifiers if q is not None]
        _placed(self.type, given)
        self._qualifier = ".".join(given) or None
        return self

    @model_serializer(mode="wrap")
    def _omit_absent_trace(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """An envelope without correlation fields serialises exactly as before they existed."""
        data: dict[str, Any] = handler(self)
        for key in ("correlation_id", "causation_id"):
            if data.get(key, "") is None:
                del data[key]
        return data


RULESETS: tuple[str, ...] = tuple(r.value for r in Ruleset)

QUALIFIERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "tournament.started": (("arena",),),
    "player.joined": (("arena",),),
    "player.left": (("arena",),),
    "game.finished": (RULESETS, ("decided",)),
}
"""Event types published under ``<type>.<qualifier>…`` when a message is one only some queues want,
each kind of qualifier at its place: an arena's start and entries go as ``tournament.started.arena``,
``player.joined.arena``, ``player.left.arena``, so that the arena queues bind those alone. A result
goes with its tournament's ruleset when clocks knew it as it created the game
(``game.finished.platform``), so that the group-playoff page's queue takes only results of
group-playoff events and of games whose ruleset clocks did not know; a result someone entered (a
``game.finished`` with a ``decision``) with ``decided`` after it (``game.finished.decided``,
``game.finished.knockout.decided``), for the audit log. A queue bound to the bare type hears them all
(:func:`bindings`)."""

EXACT = "="
"""Before a routing key in a subscription: bind that key alone, not the qualified keys it stands for
(``=game.finished``: the results published without a ruleset)."""


def _placed(kind: str, given: list[str]) -> dict[int, str]:
    """Each of a key's qualifiers by its place among ``kind``'s (:data:`QUALIFIERS`); ValueError for one
    the type does not have, or not in their order."""
    places = QUALIFIERS.get(kind, ())
    out: dict[int, str] = {}
    at = 0
    for q in given:
        while at < len(places) and q not in places[at]:
            at += 1
        if at == len(places):
            raise ValueError(f"{kind} has no routing qualifier {q!r} at that place")
        out[at] = q
        at += 1
    return out


def _split(key: str) -> tuple[str, list[str]]:
    """A routing key as its type and its qualifiers (a type's name has dots of its own)."""
    for kind in QUALIFIERS:
        if key == kind or key.startswith(kind + "."):
            rest = key[len(kind) + 1 :]
            return kind, rest.split(".") if rest else []
    return key, []


def bindings(routing_keys: tuple[str, ...]) -> tuple[str, ...]:
    """What a queue is bound to for its routing keys. A key stands for every key of its type that has
    its qualifiers, whatever the other kinds of qualifier: ``player.joined`` binds
    ``player.joined.arena`` too, so that a queue that wants every entry still hears an arena's;
    ``game.finished.decided`` binds ``game.finished.decided`` and ``game.finished.<ruleset>.decided``
    for every ruleset. ``=<key>`` (:data:`EXACT`) binds that key alone."""
    out: list[str] = []
    for key in routing_keys:
        if key.startswith(EXACT):
            out.append(key[len(EXACT) :])
            continue
        kind, given = _split(key)
        fixed = _placed(kind, given)
        keys = [kind]
        for at, place in enumerate(QUALIFIERS.get(kind, ())):
            options: list[str | None] = [fixed[at]] if at in fixed else [None, *place]
            keys = [k if q is None else f"{k}.{q}" for k in keys for q in options]
        out.extend(keys)
    return tuple(dict.fromkeys(out))


class MalformedMessage(ValueError):
    """The body is not a valid envelope, or its payload does not match its schema."""


class UnknownEvent(ValueError):
    """The envelope names a type/version nobody registered."""


_REGISTRY: dict[tuple[str, int], type[Event]] = {}
E = TypeVar("E", bound=type[Event])


def register(cls: E) -> E:
    key = (cls.TYPE, cls.VERSION)
    if not cls.TYPE or key in _REGISTRY:
        raise RuntimeError(f"event {key} has no type or is registered twice")
    _REGISTRY[key] = cls
    return cls


def registered() -> dict[tuple[str, int], type[Event]]:
    return dict(_REGISTRY)


def wrap(event: Event, tournament_id: uuid.UUID | None, **kwargs: Any) -> Envelope:
    """The envelope of a new event. It follows the current correlation context (the HTTP request, or
    the event being handled: :mod:`shared.correlation`); outside any, it starts a chain of its own."""
    trace = {**correlation.stamp(), **kwargs}
    envelope_id = trace.pop("id", None) or uuid.uuid4()
    trace.setdefault("correlation_id", str(envelope_id))
    return Envelope(
        id=envelope_id,
        type=event.TYPE,
        version=event.VERSION,
        tournament_id=tournament_id,
        payload=event.model_dump(mode="json"),
        **trace,
    )


def encode(envelope: Envelope) -> bytes:
    return envelope.model_dump_json().encode()


def decode(body: bytes | str) -> tuple[Envelope, Event]:
    """Parse and validate a message body; raise MalformedMessage or UnknownEvent."""
    try:
        envelope = Envelope.model_validate_json(body)
    except ValidationError as exc:
        raise MalformedMessage(f"not an event envelope: {_first_error(exc)}") from None
    return envelope, payload_of(envelope)


def payload_of(envelope: Envelope) -> Event:
    cls = _REGISTRY.get((envelope.type, envelope.version))
    if cls is None:
        raise UnknownEvent(f"unknown event {envelope.type!r} version {envelope.version}")
    try:
        return cls.model_validate(envelope.payload)
    except ValidationError as exc:
        raise MalformedMessage(f"{envelope.type} v{envelope.version}: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "body"
    return f"{where}: {err.get('msg', 'invalid')}"


def schema_document() -> dict[str, Any]:
    """JSON Schema of every public event, for docs/events.md and for consumers in other languages."""
    return {
        f"{t} v{v}": cls.model_json_schema()
        for (t, v), cls in sorted(_REGISTRY.items(), key=lambda kv: kv[0])
        if not cls.INTERNAL
    }

"""Operators' work on the dead-letter queues (``arbiter dlq``): count them, read them without taking
anything out, and move messages back to the queue they were dead-lettered from.

A message is dead-lettered with the headers ``x-arbiter-reason`` (why), ``x-arbiter-queue`` (the queue
whose handler gave it up) and ``x-arbiter-routing-key`` (its event type); see
:mod:`shared.messaging.rabbitmq`. A replay publishes it, confirmed and mandatory, to that queue
through the default exchange (only that handler sees it again: the others took it already), and only
then acks it in ``<queue>.dead``. Replaying is harmless for what was already handled: the inbox makes a
second delivery of an event a no-op. The message goes back without its dead-letter headers and with
its count of not-ready deliveries reset, so it gets a full new chance; ``x-arbiter-replayed`` counts
its replays.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pika
import pika.exceptions
from pika.spec import BasicProperties

from shared.messaging.queues import dead_letter_queue

_DEAD_HEADERS = (
    "x-arbiter-reason",
    "x-arbiter-queue",
    "x-arbiter-routing-key",
    "x-arbiter-deferred",
    "x-death",
)


class NoSuchQueue(LookupError):
    """The broker has no such dead-letter queue (its service never ran against this vhost)."""


@dataclass(frozen=True)
class DeadMessage:
    queue: str  # the queue it was dead-lettered from, and goes back to
    reason: str
    message_id: str | None
    event_id: str | None
    type: str | None
    tournament_id: str | None
    deferred: int  # how many times it had been put back as not ready
    replayed: int  # how many times it was replayed already
    body: bytes

    def matches(self, ids: Collection[str]) -> bool:
        return not ids or bool({self.message_id, self.event_id} & set(ids))

    def as_dict(self) -> dict[str, Any]:
        text = self.body.decode("utf-8", errors="replace")
        return {
            "queue": self.queue,
            "reason": self.reason,
            "message_id": self.message_id,
            "event_id": self.event_id,
            "type": self.type,
            "tournament_id": self.tournament_id,
            "deferred": self.deferred,
            "replayed": self.replayed,
            "body": text,
        }


class DeadLetters:
    """One connection to the broker (``amqp_url``, with the vhost in its path)."""

    def __init__(self, amqp_url: str) -> None:
        params = pika.URLParameters(amqp_url)
        params.connection_attempts = 1
        self._conn = pika.BlockingConnection(params)

    def close(self) -> None:
        if self._conn.is_open:
            self._conn.close()

    def __enter__(self) -> DeadLetters:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def count(self, queue: str) -> int:
        """How many messages ``<queue>.dead`` holds; :class:`NoSuchQueue` if there is none."""
        channel = self._conn.channel()
        try:
            return int(channel.queue_declare(dead_letter_queue(queue), passive=True).method.message_count)
        except pika.exceptions.ChannelClosedByBroker as exc:
            if exc.reply_code == 404:
                raise NoSuchQueue(dead_letter_queue(queue)) from None
            raise
        finally:
            if channel.is_open:
                channel.close()

    def peek(self, queue: str, *, limit: int | None = None) -> list[DeadMessage]:
        """The first ``limit`` messages of ``<queue>.dead`` (all: None), left where they are."""
        total = self.count(queue)
        channel = self._conn.channel()
        try:
            return [message for _tag, _props, message in _take(channel, queue, min(total, limit or total))]
        finally:
            channel.close()  # everything taken, never acked: back in the queue, in its order

    def replay(self, queue: str, *, ids: Collection[str] = (), dry_run: bool = False) -> list[DeadMessage]:
        """Move the messages of ``<queue>.dead`` (those whose message or event id is in ``ids``; all
        when empty) back to their queue; the ones moved (or, dry run, that would be). Each is published
        with confirms before it is acked, so none is lost if the tool stops halfway."""
        total = self.count(queue)
        channel = self._conn.channel()
        channel.confirm_delivery()
        moved: list[DeadMessage] = []
        try:
            for tag, props, message in _take(channel, queue, total):  # only what was there at the start
                if not message.matches(ids):
                    continue
                if not dry_run:
                    channel.basic_publish("", message.queue, message.body, _replayed(props), mandatory=True)
                    channel.basic_ack(tag)
                moved.append(message)
        finally:
            channel.close()  # the ones left unacked go back to the dead-letter queue
        return moved


def _take(channel: Any, queue: str, count: int) -> Iterator[tuple[int, BasicProperties, DeadMessage]]:
    """Up to ``count`` messages of ``<queue>.dead``, unacked: (delivery tag, properties, message)."""
    for _ in range(count):
        method, props, body = channel.basic_get(dead_letter_queue(queue), auto_ack=False)
        if method is None:
            return
        yield method.delivery_tag, props, _read(queue, props, body)


def _replayed(props: BasicProperties) -> BasicProperties:
    """The properties of a replayed message: its own, without the dead-letter headers."""
    headers = {k: v for k, v in (props.headers or {}).items() if k not in _DEAD_HEADERS}
    headers["x-arbiter-replayed"] = int((props.headers or {}).get("x-arbiter-replayed", 0)) + 1
    return BasicProperties(
        content_type=props.content_type,
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=props.message_id,
        type=props.type,
        headers=headers,
    )


def _read(dead_from: str, props: BasicProperties, body: bytes) -> DeadMessage:
    headers: dict[str, Any] = dict(props.headers or {})
    reason = headers.get("x-arbiter-reason")
    if reason is None and headers.get("x-death"):
        reason = f"rejected: {headers['x-death'][0].get('reason', '?')}"
    event: dict[str, Any] = {}
    try:
        parsed = json.loads(body)
        if isinstance(parsed, dict):
            event = parsed
    except ValueError:
        pass
    return DeadMessage(
        queue=_text(headers.get("x-arbiter-queue")) or dead_from,
        reason=_text(reason) or "unknown",
        message_id=props.message_id,
        event_id=_text(event.get("id")),
        type=_text(event.get("type")) or props.type,
        tournament_id=_text(event.get("tournament_id")),
        deferred=int(headers.get("x-arbiter-deferred", 0)),
        replayed=int(headers.get("x-arbiter-replayed", 0)),
        body=body,
    )


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def existing(letters: DeadLetters, queues: Iterable[str]) -> dict[str, int | None]:
    """Each queue's dead-letter count (None: the broker has no such dead-letter queue)."""
    out: dict[str, int | None] = {}
    for queue in queues:
        try:
            out[queue] = letters.count(queue)
        except NoSuchQueue:
            out[queue] = None
    return out

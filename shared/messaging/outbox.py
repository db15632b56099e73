"""Transactional outbox: events are written in the same transaction as the state change that
caused them, and a relay publishes them afterwards with broker confirms.

On PostgreSQL the writer also sends ``NOTIFY <channel>`` in that transaction, so the relay wakes
at commit instead of waiting for its next poll.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from shared.events import Envelope, utcnow
from shared.messaging.port import Broker, PublishError

log = logging.getLogger(__name__)


def notify_channel(service: str) -> str:
    return f"arbiter_outbox_{service}"


def add_to_outbox(session: Session, outbox: sa.Table, envelopes: Iterable[Envelope], *, channel: str) -> int:
    rows = [
        {
            "event_id": e.id,
            "type": e.type,
            "tournament_id": e.tournament_id,
            "body": e.model_dump_json(),
            "created_at": utcnow(),
        }
        for e in envelopes
    ]
    if not rows:
        return 0
    if session.get_bind().dialect.name != "postgresql":
        session.execute(_insert(outbox), rows)
    elif len(rows) == 1:  # the usual case: the row and the relay's wake-up in one round trip
        session.execute(_insert_and_notify(outbox), {**rows[0], "channel": channel})
    else:
        session.execute(_insert(outbox), rows)
        session.execute(_NOTIFY, {"channel": channel})
    return len(rows)


_COLUMNS = ("event_id", "type", "tournament_id", "body", "created_at")
_NOTIFY = sa.text("SELECT pg_notify(:channel, '')")


@functools.cache
def _insert(outbox: sa.Table) -> sa.Insert:
    """Statements are built once per table; a write only binds its values."""
    return sa.insert(outbox).values({c: sa.bindparam(c) for c in _COLUMNS})


@functools.cache
def _insert_and_notify(outbox: sa.Table) -> sa.Executable:
    added = _insert(outbox).cte("added")
    return sa.select(sa.func.pg_notify(sa.bindparam("channel"), "")).add_cte(added)


class OutboxRelay:
    """Publishes unpublished outbox rows in id order. Safe to run twice (``SKIP LOCKED``)."""

    def __init__(
        self, engine: sa.Engine, outbox: sa.Table, broker: Broker, *, channel: str, batch: int = 200
    ) -> None:
        self.engine = engine
        self.outbox = outbox
        self.broker = broker
        self.channel = channel
        self.batch = batch
        table = outbox  # its two statements, built once
        query = (
            sa.select(table.c.id, table.c.body)
            .where(table.c.published_at.is_(None))
            .order_by(table.c.id)
            .limit(batch)
        )
        if engine.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        self._unpublished = query
        self._mark = (
            sa.update(table)
            .where(table.c.id.in_(sa.bindparam("ids", expanding=True)))
            .values(published_at=sa.bindparam("at"))
        )

    def relay_once(self) -> int:
        """Publish one batch; return how many rows were published."""
        with self.engine.begin() as conn:
            rows = conn.execute(self._unpublished).all()
            if not rows:
                return 0
            envelopes = [Envelope.model_validate_json(row.body) for row in rows]
            self.broker.publish(envelopes)  # raises PublishError: the transaction rolls back, rows stay
            conn.execute(self._mark, {"ids": [r.id for r in rows], "at": utcnow()})
        return len(rows)

    def drain(self) -> int:
        """Publish until a batch comes back short: what was committed after that read woke the
        waiter (NOTIFY) or is found by the next poll, so no empty read is spent to find out."""
        total = 0
        while True:
            n = self.relay_once()
            total += n
            if n < self.batch:
                return total

    def run(self, stop: threading.Event, *, poll_seconds: float = 1.0) -> None:
        waiter = _NotifyWaiter(self.engine, self.channel)
        try:
            while not stop.is_set():
                try:
                    published = self.drain()
                except PublishError as exc:
                    log.warning("outbox relay: %s; retrying", exc)
                    stop.wait(1.0)
                    continue
                except sa.exc.OperationalError as exc:
                    log.warning("outbox relay: database unavailable (%s); retrying", exc.orig)
                    stop.wait(1.0)
                    continue
                if not published or waiter.listening:
                    waiter.wait(poll_seconds)  # a commit during the drain has already woken it
        finally:
            waiter.close()


class _NotifyWaiter:
    """Waits for NOTIFY on PostgreSQL; a plain timed wait elsewhere."""

    def __init__(self, engine: sa.Engine, channel: str) -> None:
        self._conn: Any = None
        self._event = threading.Event()
        if engine.dialect.name != "postgresql":
            return
        try:
            import psycopg

            url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            self._conn = psycopg.connect(url, autocommit=True)
            self._conn.execute(sa.text(f'LISTEN "{channel}"').text)
        except Exception as exc:  # the relay still works by polling
            log.warning("outbox relay: LISTEN unavailable (%r); polling", exc)
            self._conn = None

    @property
    def listening(self) -> bool:
        return self._conn is not None

    def wait(self, seconds: float) -> None:
        if self._conn is None:
            self._event.wait(seconds)
            return
        try:
            for _ in self._conn.notifies(timeout=seconds, stop_after=1):
                break
            for _ in self._conn.notifies(timeout=0):  # the ones queued meanwhile: one read serves all
                pass
        except Exception as exc:
            log.warning("outbox relay: LISTEN connection lost (%r); polling", exc)
            self.close()

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
            self._conn = None

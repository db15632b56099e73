"""Transactional outbox: events are written in the same transaction as the state change that
caused them, and a relay publishes them afterwards with broker confirms.

On PostgreSQL the writer also sends ``NOTIFY <channel>`` in that transaction, so the relay wakes
at commit instead of waiting for its next poll. When the relay's LISTEN connection is lost (the
database restarted) it polls meanwhile and listens again as soon as the database lets it.

The relay survives outages: while the database or the broker is unreachable it keeps its rows, says
so to its readiness and tries again with a growing pause (at most 5 s). While it has nothing to
publish it keeps its broker connection alive (:meth:`Broker.keepalive`: heartbeats answered, the
connection opened again when it was lost), so it knows whether the broker is there.

Each outbox row carries the correlation id and the causing event's id of its envelope
(:mod:`shared.correlation`), so an operator can follow an action through the table too.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from shared import metrics
from shared.database import aware
from shared.events import Envelope, utcnow
from shared.messaging.errors import describe, is_infrastructure_error
from shared.messaging.port import Broker, PublishError, Report, StoredEvent, no_report

log = logging.getLogger(__name__)


def notify_channel(service: str) -> str:
    return f"arbiter_outbox_{service}"


def add_to_outbox(session: Session, outbox: sa.Table, envelopes: Iterable[Envelope], *, channel: str) -> int:
    rows = [
        {
            "event_id": e.id,
            "type": e.routing_key,  # what the relay publishes it under (the type, or a qualified one)
            "tournament_id": e.tournament_id,
            "body": e.model_dump_json(),
            "created_at": utcnow(),
            "correlation_id": e.correlation_id,
            "causation_id": e.causation_id,
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


_COLUMNS = ("event_id", "type", "tournament_id", "body", "created_at", "correlation_id", "causation_id")
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

    SAMPLE_SECONDS = 5.0  # how often :meth:`run` measures the backlog for the metrics

    def __init__(
        self,
        engine: sa.Engine,
        outbox: sa.Table,
        broker: Broker,
        *,
        channel: str,
        batch: int = 200,
        service: str = "",
    ) -> None:
        self.engine = engine
        self.outbox = outbox
        self.broker = broker
        self.channel = channel
        self.batch = batch
        self.service = service  # the label of its metrics, recorded only once it relays (not in every
        # process that builds a relay, as each composition root does)
        table = outbox  # its statements, built once
        query = (
            sa.select(table.c.id, table.c.event_id, table.c.type, table.c.body, table.c.created_at)
            .where(table.c.published_at.is_(None))
            .order_by(table.c.id)
            .limit(batch)
        )
        self._backlog = sa.select(sa.func.count(), sa.func.min(table.c.created_at)).where(
            table.c.published_at.is_(None)
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
            stored = [StoredEvent(row.event_id, row.type, row.body.encode()) for row in rows]
            start = time.perf_counter()
            self.broker.publish_stored(stored)  # raises PublishError: the transaction rolls back, rows stay
            metrics.PUBLISH.labels(self.service).observe(time.perf_counter() - start)
            now = utcnow()
            conn.execute(self._mark, {"ids": [r.id for r in rows], "at": now})
        metrics.RELAYED.labels(self.service).inc(len(rows))
        delay = metrics.OUTBOX_DELAY.labels(self.service)
        for row in rows:
            delay.observe(max(0.0, (now - aware(row.created_at)).total_seconds()))
        return len(rows)

    def sample(self) -> tuple[int, float]:
        """Measure the backlog for the metrics: (unpublished rows, age of the oldest in seconds)."""
        with self.engine.connect() as conn:
            count, oldest = conn.execute(self._backlog).one()
        age = 0.0 if oldest is None else max(0.0, (utcnow() - aware(oldest)).total_seconds())
        metrics.OUTBOX_BACKLOG.labels(self.service).set(count)
        metrics.OUTBOX_AGE.labels(self.service).set(age)
        return int(count), age

    def drain(self) -> int:
        """Publish until a batch comes back short: what was committed after that read woke the
        waiter (NOTIFY) or is found by the next poll, so no empty read is spent to find out."""
        total = 0
        while True:
            n = self.relay_once()
            total += n
            if n < self.batch:
                return total

    def run(
        self,
        stop: threading.Event,
        *,
        poll_seconds: float = 1.0,
        report: Report = no_report,
        outage_max: float = 5.0,
    ) -> None:
        """Relay until ``stop`` is set: drain, then wait for a NOTIFY (or ``poll_seconds``). An outage
        of the database or the broker is waited out (told to ``report``), the rows kept. An idle relay
        keeps its broker connection open (:meth:`Broker.keepalive`), so it says it is unready while the
        broker is away even with nothing to publish."""
        waiter = _NotifyWaiter(self.engine, self.channel, max_backoff=outage_max)
        failures: dict[str, int] = {}  # consecutive failures, by what failed
        sampled_at = -self.SAMPLE_SECONDS
        try:
            while not stop.is_set():
                if time.monotonic() - sampled_at >= self.SAMPLE_SECONDS:
                    sampled_at = time.monotonic()
                    try:
                        self.sample()
                    except Exception as exc:  # an outage: the drain below reports it
                        log.debug("outbox relay: no backlog sample (%s)", describe(exc))
                try:
                    published = self.drain()
                except PublishError as exc:
                    self._unavailable("broker", exc, failures, report, stop, outage_max)
                    continue
                except Exception as exc:
                    if not is_infrastructure_error(exc):
                        raise
                    self._unavailable("database", exc, failures, report, stop, outage_max)
                    continue
                self._back("database", failures, report)
                if published:
                    self._back("broker", failures, report)
                if not published or waiter.listening:
                    try:  # idle: answer the broker's heartbeats, or find out that it is away
                        self.broker.keepalive()
                    except PublishError as exc:
                        self._unavailable("broker", exc, failures, report, stop, outage_max)
                        continue
                    self._back("broker", failures, report)
                    waiter.wait(poll_seconds)  # a commit during the drain has already woken it
        finally:
            waiter.close()

    @staticmethod
    def _back(name: str, failures: dict[str, int], report: Report) -> None:
        """``name`` answered again (the database: a drain went through; the broker: a publish, or an
        idle relay's connection)."""
        if name in failures:
            log.warning("outbox relay: %s back after %d failed attempts", name, failures.pop(name))
            report(name, None)

    @staticmethod
    def _unavailable(
        name: str,
        exc: BaseException,
        failures: dict[str, int],
        report: Report,
        stop: threading.Event,
        outage_max: float,
    ) -> None:
        n = failures[name] = failures.get(name, 0) + 1
        pause = min(outage_max, 0.1 * 2 ** (n - 1))
        report(name, describe(exc))
        log.log(
            logging.WARNING if n == 1 or n % 10 == 0 else logging.INFO,
            "outbox relay: %s unavailable (%s); rows kept, attempt %d again in %.1f s",
            name,
            describe(exc),
            n,
            pause,
        )
        stop.wait(pause)


class _NotifyWaiter:
    """Waits for NOTIFY on PostgreSQL; a plain timed wait elsewhere.

    When its LISTEN connection is lost (a database restart, a terminated backend) it falls back on timed
    waits, so the relay polls, and tries to listen again after 0.5 s, 1 s, … at most ``max_backoff``
    between attempts. The wait that listens again returns at once, so the relay drains whatever was
    committed while nobody listened."""

    def __init__(self, engine: sa.Engine, channel: str, *, max_backoff: float = 5.0) -> None:
        self._conn: Any = None
        self._event = threading.Event()
        self._channel = channel
        self._max_backoff = max_backoff
        self._failures = 0  # consecutive failed attempts to listen
        self._retry_at = 0.0  # time.monotonic() of the next attempt
        self._url: str | None = None
        if engine.dialect.name == "postgresql":
            self._url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            self._listen()

    @property
    def listening(self) -> bool:
        return self._conn is not None

    def _listen(self) -> bool:
        import psycopg

        assert self._url is not None
        try:
            # keepalives: a connection that silently died (no FIN) is noticed within a minute
            conn = psycopg.connect(
                self._url,
                autocommit=True,
                connect_timeout=5,
                keepalives=1,
                keepalives_idle=20,
                keepalives_interval=5,
                keepalives_count=4,
            )
            conn.execute(f'LISTEN "{self._channel}"'.encode())
        except Exception as exc:  # the relay still works by polling
            self._failures += 1
            delay = min(self._max_backoff, 0.5 * 2 ** (self._failures - 1))
            self._retry_at = time.monotonic() + delay
            log.log(
                logging.WARNING if self._failures == 1 else logging.INFO,
                "outbox relay: LISTEN unavailable (%s); polling, listening again in %.1f s",
                describe(exc),
                delay,
            )
            return False
        if self._failures:
            log.warning("outbox relay: LISTEN re-established after %d attempts", self._failures)
        self._failures = 0
        self._conn = conn
        return True

    def wait(self, seconds: float) -> None:
        if self._conn is None:
            if self._url is not None:
                if time.monotonic() >= self._retry_at and self._listen():
                    return  # listening again: drain what was committed while nobody listened
                seconds = min(seconds, max(0.0, self._retry_at - time.monotonic()))
            self._event.wait(seconds)
            return
        try:
            for _ in self._conn.notifies(timeout=seconds, stop_after=1):
                break
            for _ in self._conn.notifies(timeout=0):  # the ones queued meanwhile: one read serves all
                pass
        except Exception as exc:
            log.warning("outbox relay: LISTEN connection lost (%s); polling until it is back", describe(exc))
            self.close()
            self._retry_at = time.monotonic()  # the next wait tries at once

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
            self._conn = None

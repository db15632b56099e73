"""Inbox: each consumed event id is recorded, per handler, in the same transaction as its effect,
so a redelivered event changes nothing."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from shared.events import utcnow


def first_delivery(session: Session, inbox: sa.Table, event_id: uuid.UUID, handler: str) -> bool:
    """Record the event for this handler; False if it was already recorded (a redelivery).

    Concurrent deliveries of the same event serialise on the primary key: the second waits for the
    first transaction and then inserts nothing.
    """
    values = {"event_id": event_id, "handler": handler, "processed_at": utcnow()}
    dialect = session.get_bind().dialect.name
    if dialect in ("postgresql", "sqlite"):
        return session.execute(_record_once(inbox, dialect), values).first() is not None
    exists = session.execute(
        sa.select(inbox.c.event_id).where(inbox.c.event_id == event_id, inbox.c.handler == handler)
    ).first()
    if exists:
        return False
    session.execute(sa.insert(inbox).values(values))
    return True


def first_deliveries(
    session: Session, inbox: sa.Table, event_ids: Sequence[uuid.UUID], handler: str
) -> list[bool]:
    """:func:`first_delivery` for a batch in one multi-row statement: for each id, in order, whether
    this is its first delivery. An id twice in the batch (the relay published it twice) is the first
    delivery at most once, at its first place."""
    dialect = session.get_bind().dialect.name
    if dialect not in ("postgresql", "sqlite"):
        return [first_delivery(session, inbox, i, handler) for i in event_ids]
    at = utcnow()
    unique = list(dict.fromkeys(event_ids))
    rows = [{"event_id": i, "handler": handler, "processed_at": at} for i in unique]
    # executemany with RETURNING: SQLAlchemy sends it as one INSERT … VALUES (…), (…) (insertmanyvalues)
    recorded = set(session.execute(_record_once(inbox, dialect), rows).scalars())
    out = []
    for i in event_ids:
        out.append(i in recorded)
        recorded.discard(i)
    return out


@functools.cache
def _record_once(inbox: sa.Table, dialect: str) -> sa.Executable:
    """Built once per table: a message's hot path only binds values (no statement construction)."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    columns = ("event_id", "handler", "processed_at")
    return (
        insert(inbox)
        .values({c: sa.bindparam(c) for c in columns})
        .on_conflict_do_nothing()
        .returning(inbox.c.event_id)
    )

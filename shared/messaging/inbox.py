"""Inbox: each consumed event id is recorded, per handler, in the same transaction as its effect,
so a redelivered event changes nothing."""

from __future__ import annotations

import uuid

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
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        stmt = insert(inbox).values(values).on_conflict_do_nothing().returning(inbox.c.event_id)
        return session.execute(stmt).first() is not None
    else:
        exists = session.execute(
            sa.select(inbox.c.event_id).where(inbox.c.event_id == event_id, inbox.c.handler == handler)
        ).first()
        if exists:
            return False
        session.execute(sa.insert(inbox).values(values))
        return True

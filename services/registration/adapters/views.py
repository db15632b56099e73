"""The reads behind registration's HTTP API: tournaments, accounts and audit logs as the pages show
them, straight from the tables, outside any unit of work."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from services.registration.adapters.orm import accounts, tournaments
from services.registration.adapters.repository import (
    account_of,
    arbiters_of,
    audit_of,
    entries_of,
    invites_of,
    tournament_of,
)
from services.registration.domain.account import Account
from services.registration.domain.audit import AuditEntry
from services.registration.domain.passwords import InviteLink
from services.registration.domain.tournament import Status, Tournament

_LIST = sa.select(tournaments).order_by(
    tournaments.c.starts_at.is_(None), tournaments.c.starts_at, tournaments.c.created_at
)


def tournaments_list(engine: sa.Engine, *, status: Status | None, limit: int) -> list[Tournament]:
    """Tournaments by start time (drafts, which have none, last), each with its entries."""
    query = _LIST.limit(limit)
    if status is not None:
        query = query.where(tournaments.c.status == status.value)
    with engine.connect() as conn:
        rows = conn.execute(query).all()
        by_tournament = entries_of(conn, [row.id for row in rows])
    return [tournament_of(row, by_tournament[row.id]) for row in rows]


def tournament(engine: sa.Engine, tournament_id: uuid.UUID) -> Tournament | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if row is None:
            return None
        return tournament_of(row, entries_of(conn, [row.id])[row.id], arbiters_of(conn, [row.id])[row.id])


def roster_revision(engine: sa.Engine, tournament_id: uuid.UUID) -> int:
    """The tournament's roster revision now (0: none, or no such tournament)."""
    query = sa.select(tournaments.c.roster_revision).where(tournaments.c.id == tournament_id)
    with engine.connect() as conn:
        found: int | None = conn.execute(query).scalar()
    return found or 0


def audit(engine: sa.Engine, tournament_id: uuid.UUID) -> list[AuditEntry]:
    """The tournament's audit log in time order."""
    with engine.connect() as conn:
        return audit_of(conn, tournament_id)


def invites(engine: sa.Engine, tournament_id: uuid.UUID) -> list[InviteLink]:
    """The tournament's invite links, oldest first (revoked ones too)."""
    with engine.connect() as conn:
        return invites_of(conn, tournament_id)


def account(engine: sa.Engine, account_id: uuid.UUID) -> Account | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
    return None if row is None else account_of(row)

"""Repositories: translate between the tables and the domain objects."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.registration.adapters.orm import accounts, entries, tournaments
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.model import Account, AccountKind, Entry, Status, TimeControl, Tournament
from shared.database import aware, aware_or_none


class AccountRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, account_id: uuid.UUID) -> Account | None:
        row = self.session.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
        if row is None:
            return None
        return Account(row.id, row.name, AccountKind(row.kind), dict(row.ratings))

    def ratings(self, account_ids: list[uuid.UUID]) -> dict[uuid.UUID, dict[str, int]]:
        """Each account's ratings now (seeding a knockout by the tournament's time control)."""
        if not account_ids:
            return {}
        rows = self.session.execute(
            sa.select(accounts.c.id, accounts.c.ratings).where(accounts.c.id.in_(account_ids))
        ).all()
        return {row.id: dict(row.ratings) for row in rows}

    def add(self, account: Account, now: dt.datetime) -> None:
        self.session.execute(
            sa.insert(accounts).values(
                id=account.id,
                name=account.name,
                kind=account.kind.value,
                ratings=account.ratings,
                created_at=now,
            )
        )


class TournamentRepository:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._seen: dict[uuid.UUID, dict[uuid.UUID, int | None]] = {}  # entries as loaded: id → rating

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Tournament | None:
        query = sa.select(tournaments).where(tournaments.c.id == tournament_id)
        if lock:
            query = query.with_for_update()
        row = self.session.execute(query).first()
        if row is None:
            return None
        return self._load(row, self._entries([row.id])[row.id])

    def _entries(self, tournament_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[Any]]:
        """The entries of these tournaments in joining order, in one query."""
        found: dict[uuid.UUID, list[Any]] = {tid: [] for tid in tournament_ids}
        if tournament_ids:
            query = (
                sa.select(entries)
                .where(entries.c.tournament_id.in_(tournament_ids))
                .order_by(entries.c.joined_at)
            )
            for e in self.session.execute(query):
                found[e.tournament_id].append(e)
        return found

    def _load(self, row: Any, entry_rows: list[Any]) -> Tournament:
        t = Tournament(
            id=row.id,
            organiser_id=row.organiser_id,
            name=row.name,
            starts_at=aware_or_none(row.starts_at),
            time_control=TimeControl(row.base_seconds, row.increment_seconds, row.days_per_move),
            seats=row.seats,
            minimum=row.minimum,
            threshold=row.threshold,
            ruleset=row.ruleset,
            variant=row.variant,
            double_rounds=row.double_rounds,
            extra_round=row.extra_round,
            rated=row.rated,
            min_rating=row.min_rating,
            password_hash=row.password_hash,
            status=Status(row.status),
            status_reason=row.status_reason,
            created_at=aware(row.created_at),
            entries=[Entry(e.player_id, e.name, e.rating, aware(e.joined_at)) for e in entry_rows],
            knockout=KnockoutFormat.from_dict(row.knockout) if row.knockout is not None else None,
        )
        self._seen[t.id] = {e.player_id: e.rating for e in t.entries}
        return t

    def find(self, *, status: Status | None = None, limit: int = 100) -> list[Tournament]:
        query = (
            sa.select(tournaments)
            .order_by(tournaments.c.starts_at.is_(None), tournaments.c.starts_at, tournaments.c.created_at)
            .limit(limit)
        )
        if status is not None:
            query = query.where(tournaments.c.status == status.value)
        rows = self.session.execute(query).all()
        by_tournament = self._entries([row.id for row in rows])
        return [self._load(row, by_tournament[row.id]) for row in rows]

    def due(self, now: dt.datetime, *, limit: int = 50) -> list[uuid.UUID]:
        query = (
            sa.select(tournaments.c.id)
            .where(tournaments.c.status == Status.SCHEDULED.value, tournaments.c.starts_at <= now)
            .order_by(tournaments.c.starts_at)
            .limit(limit)
        )
        return list(self.session.execute(query).scalars())

    def organiser_busy(self, organiser_id: uuid.UUID) -> bool:
        """A `platform` competition of this organiser is scheduled or under way (knockouts do not count)."""
        query = sa.select(sa.func.count()).where(
            tournaments.c.organiser_id == organiser_id,
            tournaments.c.status.in_([Status.SCHEDULED.value, Status.STARTED.value]),
            tournaments.c.ruleset == "platform",
        )
        return bool(self.session.execute(query).scalar())

    def add(self, t: Tournament) -> None:
        self.session.execute(sa.insert(tournaments).values(**self._row(t)))
        self._seen[t.id] = {}
        self._sync_entries(t)

    def save(self, t: Tournament) -> None:
        self.session.execute(sa.update(tournaments).where(tournaments.c.id == t.id).values(**self._row(t)))
        self._sync_entries(t)

    def _sync_entries(self, t: Tournament) -> None:
        before = self._seen.get(t.id, {})
        now_ids = {e.player_id for e in t.entries}
        gone = before.keys() - now_ids
        if gone:
            self.session.execute(
                sa.delete(entries).where(entries.c.tournament_id == t.id, entries.c.player_id.in_(gone))
            )
        new = [e for e in t.entries if e.player_id not in before]
        if new:
            self.session.execute(
                sa.insert(entries),
                [
                    {
                        "tournament_id": t.id,
                        "player_id": e.player_id,
                        "name": e.name,
                        "rating": e.rating,
                        "joined_at": e.joined_at,
                    }
                    for e in new
                ],
            )
        for e in t.entries:  # ratings are read again when a knockout starts
            if e.player_id in before and before[e.player_id] != e.rating:
                self.session.execute(
                    sa.update(entries)
                    .where(entries.c.tournament_id == t.id, entries.c.player_id == e.player_id)
                    .values(rating=e.rating)
                )
        self._seen[t.id] = {e.player_id: e.rating for e in t.entries}

    @staticmethod
    def _row(t: Tournament) -> dict[str, Any]:
        return {
            "id": t.id,
            "organiser_id": t.organiser_id,
            "name": t.name,
            "starts_at": t.starts_at,
            "base_seconds": t.time_control.base_seconds,
            "increment_seconds": t.time_control.increment_seconds,
            "days_per_move": t.time_control.days_per_move,
            "seats": t.seats,
            "minimum": t.minimum,
            "threshold": t.threshold,
            "ruleset": t.ruleset,
            "variant": t.variant,
            "double_rounds": t.double_rounds,
            "extra_round": t.extra_round,
            "rated": t.rated,
            "min_rating": t.min_rating,
            "password_hash": t.password_hash,
            "status": t.status.value,
            "status_reason": t.status_reason,
            "created_at": t.created_at,
            "knockout": t.knockout.to_dict() if t.knockout is not None else None,
        }

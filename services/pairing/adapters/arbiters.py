"""The arbiters of a tournament on SQL (kept before it starts here too): one row per arbiter, the latest
decision about them."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import arbiters
from services.pairing.adapters.rows import TID
from services.pairing.domain.arbiters import ArbiterChanged, ArbiterEntry, Arbiters
from shared.database import aware
from shared.repository import Repository

_ARBITERS = sa.select(arbiters).where(arbiters.c.tournament_id == TID)
_INSERT_ARBITER = sa.insert(arbiters)
_UPDATE_ARBITER = (
    sa.update(arbiters)
    .where(arbiters.c.tournament_id == TID, arbiters.c.arbiter_id == sa.bindparam("aid"))
    .values(games=sa.bindparam("scope"), active=sa.bindparam("on"), decided_at=sa.bindparam("at"))
)


class SqlArbiters(Repository[uuid.UUID, Arbiters]):
    """The arbiters of a tournament, one row per arbiter (the latest decision about them)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> Arbiters | None:
        rows = self.session.execute(_ARBITERS, {"tid": tournament_id}).all()
        if not rows:
            return None
        entries = {
            r.arbiter_id: ArbiterEntry(
                r.arbiter_id,
                None if r.games is None else frozenset(uuid.UUID(g) for g in r.games),
                r.active,
                aware(r.decided_at),
            )
            for r in rows
        }
        return Arbiters(tournament_id, entries)

    def _insert(self, a: Arbiters) -> None:
        self._update(a)

    def _update(self, a: Arbiters) -> None:
        for change in a.take_changes():
            if not isinstance(change, ArbiterChanged):
                raise TypeError(f"arbiters do not make {type(change).__name__}")
            entry = a.entries[change.arbiter_id]
            scope = None if entry.games is None else sorted(str(g) for g in entry.games)
            values: dict[str, Any] = {"tid": a.tournament_id, "aid": entry.arbiter_id, "scope": scope}
            values |= {"on": entry.active, "at": entry.decided_at}
            if self.session.execute(_UPDATE_ARBITER, values).rowcount == 0:  # type: ignore[attr-defined]
                self.session.execute(
                    _INSERT_ARBITER,
                    {
                        "tournament_id": a.tournament_id,
                        "arbiter_id": entry.arbiter_id,
                        "games": scope,
                        "active": entry.active,
                        "decided_at": entry.decided_at,
                    },
                )

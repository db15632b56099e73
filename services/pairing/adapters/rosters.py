"""What pairing has heard of each tournament's roster (``domain/roster.py``) on SQL and in memory: a row
per tournament in ``roster_revisions``, with no foreign key (a roster change may come before pairing
holds the tournament's rows, and the row outlives a knockout reset to its draft)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import roster_revisions
from services.pairing.domain.roster import RosterHeard
from shared.aggregate import Seen
from shared.testing.memory import MemoryRepository

_TID: sa.BindParameter[uuid.UUID] = sa.bindparam("tid")
_HEARD = sa.select(roster_revisions).where(roster_revisions.c.tournament_id == _TID)
_HEARD_LOCKED = _HEARD.with_for_update()
_UPDATE = (
    sa.update(roster_revisions)
    .where(roster_revisions.c.tournament_id == _TID)
    .values(revision=sa.bindparam("revision"), ahead=sa.bindparam("ahead"))
)
_INSERT = sa.insert(roster_revisions)


class SqlRosters:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: Seen[RosterHeard] = Seen()

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> RosterHeard | None:
        row = self.session.execute(_HEARD_LOCKED if lock else _HEARD, {"tid": tournament_id}).first()
        if row is None:
            return None
        return self.seen.add(RosterHeard(tournament_id, row.revision, frozenset(row.ahead)))

    def add(self, heard: RosterHeard) -> None:
        """The tournament's first row (two consumers adding it at once: one of them fails on the primary
        key and is retried, then finds it)."""
        row = {"tournament_id": heard.tournament_id, "revision": heard.revision, "ahead": sorted(heard.ahead)}
        self.session.execute(_INSERT, row)
        self.seen.add(heard)

    def save(self, heard: RosterHeard) -> None:
        values = {"tid": heard.tournament_id, "revision": heard.revision, "ahead": sorted(heard.ahead)}
        self.session.execute(_UPDATE, values)
        self.seen.add(heard)


class MemoryRosters(MemoryRepository[uuid.UUID, RosterHeard]):
    pass

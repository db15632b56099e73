"""What pairing has heard of each tournament's roster (``domain/roster.py``) on SQL (its in-memory twin is in ``memory.py``): a row
per tournament in ``roster_revisions``, with no foreign key (a roster change may come before pairing
holds the tournament's rows, and the row outlives a knockout reset to its draft)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import roster_revisions
from services.pairing.domain.roster import RosterHeard
from shared.repository import Repository

_TID: sa.BindParameter[uuid.UUID] = sa.bindparam("tid")
_HEARD = sa.select(roster_revisions).where(roster_revisions.c.tournament_id == _TID)
_HEARD_LOCKED = _HEARD.with_for_update()
_UPDATE = (
    sa.update(roster_revisions)
    .where(roster_revisions.c.tournament_id == _TID)
    .values(revision=sa.bindparam("revision"), ahead=sa.bindparam("ahead"))
)
_INSERT = sa.insert(roster_revisions)


class SqlRosters(Repository[uuid.UUID, RosterHeard]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> RosterHeard | None:
        row = self.session.execute(_HEARD_LOCKED if lock else _HEARD, {"tid": tournament_id}).first()
        if row is None:
            return None
        return RosterHeard(tournament_id, row.revision, frozenset(row.ahead))

    def _insert(self, heard: RosterHeard) -> None:
        """The tournament's first row (two consumers adding it at once: one of them fails on the primary
        key and is retried, then finds it)."""
        row = {"tournament_id": heard.tournament_id, "revision": heard.revision, "ahead": sorted(heard.ahead)}
        self.session.execute(_INSERT, row)

    def _update(self, heard: RosterHeard) -> None:
        values = {"tid": heard.tournament_id, "revision": heard.revision, "ahead": sorted(heard.ahead)}
        self.session.execute(_UPDATE, values)

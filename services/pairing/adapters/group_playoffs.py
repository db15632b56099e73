"""Group-playoff events on SQL: the head row in ``tournaments`` (the row lock, the system; ``rows.py``)
and the event's state as one document in ``group_playoffs``."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import group_playoffs, tournaments
from services.pairing.adapters.rows import RowLocks, insert_head
from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.domain.heading import Status
from services.pairing.domain.rounds.platform import Plan
from shared.repository import Repository
from shared.vocabulary import System

_STATE = sa.select(group_playoffs.c.state).where(group_playoffs.c.tournament_id == sa.bindparam("tid"))
_UPDATE = (
    sa.update(group_playoffs)
    .where(group_playoffs.c.tournament_id == sa.bindparam("tid"))
    .values(state=sa.bindparam("state"))
)


class SqlGroupPlayoffs(Repository[uuid.UUID, GroupPlayoffTournament]):
    def __init__(self, session: Session, locks: RowLocks) -> None:
        super().__init__()
        self.session = session
        self.locks = locks

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> GroupPlayoffTournament | None:
        if lock and self.locks.take(tournament_id) is None:
            return None
        state = self.session.execute(_STATE, {"tid": tournament_id}).scalar()
        if state is None:
            return None
        return GroupPlayoffTournament.from_dict(tournament_id, state)

    def _insert(self, t: GroupPlayoffTournament) -> None:
        plan = Plan(System.GROUP_PLAYOFF, 3, False)
        insert_head(self.session, t.heading, t.players, System.GROUP_PLAYOFF, plan, False, Status.RUNNING)
        self.session.execute(sa.insert(group_playoffs), {"tournament_id": t.id, "state": t.to_dict()})

    def _update(self, t: GroupPlayoffTournament) -> None:
        self.session.execute(_UPDATE, {"tid": t.id, "state": t.to_dict()})
        if t.completed:
            done = (
                sa.update(tournaments).where(tournaments.c.id == t.id).values(status=Status.COMPLETED.value)
            )
            self.session.execute(done)

"""One round of a tournament of rounds on SQL, as a result changes it: the commonest message by far costs
the row lock, one read of its round and one update (the tournament whole is ``tournaments.py``)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import games, rounds, tournaments
from services.pairing.adapters.rows import TID, RowLocks, close_round, finish, record_outcome
from services.pairing.domain.changes import Finished, OutcomeSet, RoundClosed
from services.pairing.domain.rounds.results import RoundResults
from shared.database import aware_or_none
from shared.repository import Repository
from shared.scoring import Outcome

_ROUND_RESULTS = (
    sa.select(
        tournaments.c.organiser_id,
        tournaments.c.total_rounds,
        tournaments.c.ends_at,
        tournaments.c.fide,
        rounds.c.completed_at,
        games.c.game_id,
        games.c.outcome,
    )
    .select_from(
        tournaments.join(rounds, rounds.c.tournament_id == tournaments.c.id).outerjoin(
            games, sa.and_(games.c.tournament_id == rounds.c.tournament_id, games.c.round == rounds.c.number)
        )
    )
    .where(tournaments.c.id == TID, rounds.c.number == sa.bindparam("n"))
)


class SqlRoundResults(Repository[tuple[uuid.UUID, int], RoundResults]):
    def __init__(self, session: Session, locks: RowLocks) -> None:
        super().__init__()
        self.session = session
        self.locks = locks

    def _find(self, key: tuple[uuid.UUID, int], *, lock: bool) -> RoundResults | None:
        """Round ``number`` of a tournament: who organises it, how many rounds it has, and its games'
        outcomes, in one statement (after the row lock: a statement taken before it would read the
        round as it was before the lock's previous holder committed)."""
        tid, number = key
        if lock and self.locks.take(tid) is None:
            return None
        rows = self.session.execute(_ROUND_RESULTS, {"tid": tid, "n": number}).all()
        if not rows:
            return None
        first = rows[0]
        outcomes = {
            r.game_id: Outcome(r.outcome) if r.outcome else None for r in rows if r.game_id is not None
        }
        return RoundResults(
            tid,
            first.organiser_id,
            number,
            first.total_rounds,
            outcomes,
            first.completed_at is not None,
            aware_or_none(first.ends_at),
            on_command=first.fide is not None,
        )

    def _update(self, results: RoundResults) -> None:
        tid = results.tournament_id
        for change in results.take_changes():
            if isinstance(change, OutcomeSet):
                record_outcome(self.session, change)
            elif isinstance(change, RoundClosed):
                close_round(self.session, tid, change.number, change.at)
            elif isinstance(change, Finished):
                finish(self.session, tid)
            else:
                raise TypeError(f"a round's results do not make {type(change).__name__}")
